@preconcurrency import Combine
@_spi(Internals) import ComposableArchitecture
import XCTest
#if canImport(Testing)
  import Testing
#endif
#if canImport(Testing)
#endif
