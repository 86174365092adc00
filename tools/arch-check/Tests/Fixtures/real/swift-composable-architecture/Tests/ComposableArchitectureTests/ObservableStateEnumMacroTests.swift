import ComposableArchitecture
    #if os(macOS)
    #elseif os(tvOS)
    #endif
    #if DEBUG
      #if INNER
      #endif
    #endif
