import OrderedCollections
import SwiftUI
  #if ComposableArchitecture2Deprecations
  #else
  #endif
      #if DEBUG
      #else
      #endif
