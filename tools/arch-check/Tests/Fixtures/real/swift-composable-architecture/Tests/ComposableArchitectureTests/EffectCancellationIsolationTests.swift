#if canImport(Testing)
  import ComposableArchitecture
  import Testing
#endif
