import Combine
import CombineSchedulers
import Foundation
import SwiftUI
  #if !os(visionOS)
  #else
  #endif
  #if ComposableArchitecture2Deprecations
  #else
  #endif
  #if ComposableArchitecture2Deprecations
  #else
  #endif
  #if ComposableArchitecture2Deprecations
  #else
  #endif
  #if ComposableArchitecture2Deprecations
  #else
  #endif
#if ComposableArchitecture2Deprecations
#else
#endif
#if canImport(Observation)
#endif
