@_spi(Testing) import SwiftParser
#if !os(WASI)
import Dispatch
#endif
  #if os(WASI)
  #else
  #endif
