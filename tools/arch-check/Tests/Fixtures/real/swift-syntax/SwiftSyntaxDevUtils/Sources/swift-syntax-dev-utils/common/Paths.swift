import Foundation
    #if os(Windows)
    #else
    #endif
    #if os(Windows)
    #else
    #endif
