import Combine
@_spi(Internals) import ComposableArchitecture
import XCTest
#if DEBUG
  @testable import ComposableArchitecture
#endif
