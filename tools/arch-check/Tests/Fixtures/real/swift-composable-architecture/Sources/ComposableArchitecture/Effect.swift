@preconcurrency import Combine
import Foundation
import SwiftUI
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
#if swift(<6.2)
#endif
