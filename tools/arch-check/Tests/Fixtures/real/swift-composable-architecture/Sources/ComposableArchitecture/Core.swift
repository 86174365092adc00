import Combine
import Foundation
    #if DEBUG
    #else
    #endif
  #if DEBUG
  #endif
    #if DEBUG
    #else
    #endif
  #if DEBUG
  #endif
    #if DEBUG
    #else
    #endif
    #if DEBUG
    #else
    #endif
