#if DEBUG
  import Combine
  @_spi(Internals) import ComposableArchitecture
  import XCTest
#endif
