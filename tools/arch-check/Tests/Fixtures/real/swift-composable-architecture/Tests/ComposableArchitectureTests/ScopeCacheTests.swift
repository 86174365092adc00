@_spi(Internals) import ComposableArchitecture
import XCTest
    #if DEBUG
    #endif
    #if DEBUG
    #endif
    #if DEBUG
    #endif
