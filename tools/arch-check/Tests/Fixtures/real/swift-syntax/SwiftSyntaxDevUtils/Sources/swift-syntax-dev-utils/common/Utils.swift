import Foundation
  #if os(macOS)
  #else
  #endif
