  #if ComposableArchitecture2Deprecations
  #else
  #endif
