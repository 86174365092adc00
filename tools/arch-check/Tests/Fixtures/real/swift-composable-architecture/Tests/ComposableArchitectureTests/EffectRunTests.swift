import Combine
import ComposableArchitecture
import XCTest
  #if DEBUG
  #endif
