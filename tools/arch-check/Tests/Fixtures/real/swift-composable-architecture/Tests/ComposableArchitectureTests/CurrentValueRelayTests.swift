#if DEBUG
  @preconcurrency import Combine
  @testable @preconcurrency import ComposableArchitecture
  import XCTest
#endif
