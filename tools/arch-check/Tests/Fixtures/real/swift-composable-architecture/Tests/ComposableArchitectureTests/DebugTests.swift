#if DEBUG
  import Combine
  import CustomDump
  import XCTest
  @testable import ComposableArchitecture
#endif
