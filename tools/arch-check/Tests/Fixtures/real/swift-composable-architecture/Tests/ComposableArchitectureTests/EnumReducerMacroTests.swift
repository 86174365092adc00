import ComposableArchitecture
    #if os(macOS)
    #elseif os(iOS)
    #else
    #endif
    #if DEBUG
      #if INNER
      #endif
    #endif
