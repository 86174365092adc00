@_spi(Logging) import ComposableArchitecture
import SwiftUI
import XCTest
  #if !os(macOS)
      #if DEBUG && !os(visionOS)
      #endif
  #endif
    #if canImport(UIKit)
    #endif
