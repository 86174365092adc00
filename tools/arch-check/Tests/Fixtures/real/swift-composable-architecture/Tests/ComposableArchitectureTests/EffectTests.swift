import Combine
@_spi(Canary) @_spi(Internals) import ComposableArchitecture
import XCTest
