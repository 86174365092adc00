import ComposableArchitecture
#if canImport(SwiftUI)
  import SwiftUI
#endif
#if canImport(SwiftUI)
#endif
