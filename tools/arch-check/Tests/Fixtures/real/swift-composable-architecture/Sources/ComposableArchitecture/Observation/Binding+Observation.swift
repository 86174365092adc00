import SwiftUI
#if DEBUG
#endif
    #if DEBUG
    #endif
