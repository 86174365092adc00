import ArgumentParser
import Foundation
#if os(Windows)
import WinSDK
#endif
    #if os(iOS) || os(tvOS) || os(watchOS)
    #else
        #if os(Windows)
        #else
        #endif
    #endif
