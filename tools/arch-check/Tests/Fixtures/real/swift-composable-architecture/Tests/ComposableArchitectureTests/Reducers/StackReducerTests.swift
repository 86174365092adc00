@_spi(Internals) import ComposableArchitecture
import XCTest
