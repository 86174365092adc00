import Combine
@_spi(Internals) import ComposableArchitecture
import XCTest
