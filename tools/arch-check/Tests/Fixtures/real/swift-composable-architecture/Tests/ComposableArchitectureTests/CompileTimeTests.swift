import ComposableArchitecture
  #if !PRODUCTION_BUILD
  #endif
