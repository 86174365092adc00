import Combine
@_spi(Logging) import ComposableArchitecture
import XCTest
  #if DEBUG
  #endif
