import Combine
import Dispatch
@_spi(SharedChangeTracking) import Sharing
  #if DEBUG
  #else
  #endif
