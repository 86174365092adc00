import OSLog
  #if DEBUG
  #else
  #endif
