#if DEBUG
  import XCTest
  @testable import ComposableArchitecture
#endif
