@_spi(Internals) @_spi(Logging) import ComposableArchitecture
import XCTest
