  #if swift(>=6)
  #else
  #endif
