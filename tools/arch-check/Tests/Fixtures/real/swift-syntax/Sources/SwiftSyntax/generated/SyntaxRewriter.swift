  #if DEBUG
  #else
  #endif
