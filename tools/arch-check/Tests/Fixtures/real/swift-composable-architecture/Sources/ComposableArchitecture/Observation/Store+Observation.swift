import SwiftUI
#if canImport(Observation)
  import Observation
#endif
#if !os(visionOS)
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
  #if ComposableArchitecture2DeprecationOverloads
    #if ComposableArchitecture2Deprecations
    #else
    #endif
  #else
    #if ComposableArchitecture2Deprecations
    #else
    #endif
  #endif
  #if ComposableArchitecture2DeprecationOverloads
    #if ComposableArchitecture2Deprecations
    #else
    #endif
  #else
    #if ComposableArchitecture2Deprecations
    #else
    #endif
  #endif
  #if ComposableArchitecture2DeprecationOverloads
      #if DEBUG && canImport(SwiftUI)
      #else
      #endif
    #if ComposableArchitecture2Deprecations
    #else
    #endif
      #if DEBUG && canImport(SwiftUI)
      #else
      #endif
      #if DEBUG && canImport(SwiftUI)
      #else
      #endif
  #else
      #if DEBUG && canImport(SwiftUI)
      #else
      #endif
    #if ComposableArchitecture2Deprecations
    #else
    #endif
      #if DEBUG && canImport(SwiftUI)
      #else
      #endif
  #endif
      #if DEBUG && !os(visionOS)
      #else
      #endif
