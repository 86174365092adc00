@_spi(Reflection) import CasePaths
#if canImport(Combine)
  @preconcurrency import Combine
#endif
#if canImport(SwiftUI)
  import SwiftUI
#endif
#if canImport(UIKit)
  import UIKit
#endif
  #if DEBUG
  #endif
    #if DEBUG
    #endif
#if DEBUG
#endif
    #if DEBUG
    #else
    #endif
  #if DEBUG
  #endif
    #if DEBUG
    #endif
    #if DEBUG
    #endif
  #if DEBUG
  #endif
    #if DEBUG
        #if os(macOS)
        #else
        #endif
    #else
    #endif
  #if DEBUG
  #endif
    #if DEBUG
    #endif
    #if DEBUG
    #endif
    #if DEBUG
    #endif
    #if os(iOS)
    #endif
  #if DEBUG
  #endif
    #if DEBUG
    #endif
            #if DEBUG
            #else
            #endif
        #if DEBUG
        #else
        #endif
  #if !os(macOS)
  #endif
          #if DEBUG
          #endif
        #if DEBUG
        #endif
#if canImport(UIKit) && !os(watchOS)
#endif
#if canImport(SwiftUI)
#endif
