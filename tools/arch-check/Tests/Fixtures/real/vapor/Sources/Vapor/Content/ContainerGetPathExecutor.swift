        #if DEBUG
        #endif
        #if DEBUG
        #endif
