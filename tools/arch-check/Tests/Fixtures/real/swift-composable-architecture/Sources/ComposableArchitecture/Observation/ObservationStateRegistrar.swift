  #if !os(visionOS)
  #else
  #endif
#if canImport(Observation)
#endif
#if !os(visionOS)
#endif
