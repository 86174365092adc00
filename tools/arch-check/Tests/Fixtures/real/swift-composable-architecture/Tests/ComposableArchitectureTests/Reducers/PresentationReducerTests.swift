import ComposableArchitecture
import XCTest
  #if !os(visionOS)
  #endif
