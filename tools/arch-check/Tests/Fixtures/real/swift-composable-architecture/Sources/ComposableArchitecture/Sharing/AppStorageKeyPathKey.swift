import Dependencies
import Foundation
  #if canImport(Sharing2)
  #else
  #endif
