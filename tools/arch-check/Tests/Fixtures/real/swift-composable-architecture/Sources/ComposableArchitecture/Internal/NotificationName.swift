import Foundation
#if canImport(AppKit)
  import AppKit
#endif
#if canImport(UIKit)
  import UIKit
#endif
#if canImport(WatchKit)
  import WatchKit
#endif
  #if os(iOS) || os(tvOS) || os(visionOS)
  #elseif os(macOS)
  #elseif os(watchOS)
  #else
  #endif
  #if os(iOS) || os(tvOS) || os(visionOS)
  #elseif os(macOS)
  #elseif os(watchOS)
  #else
  #endif
  #if os(iOS) || os(tvOS) || os(visionOS)
  #elseif os(macOS)
  #else
  #endif
