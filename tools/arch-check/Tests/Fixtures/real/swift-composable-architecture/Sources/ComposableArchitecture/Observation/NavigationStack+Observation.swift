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
  #if ComposableArchitecture2Deprecations
  #else
  #endif
    #if DEBUG
    #else
    #endif
      #if DEBUG && !os(visionOS)
      #else
      #endif
  #if DEBUG && !os(visionOS)
  #else
  #endif
