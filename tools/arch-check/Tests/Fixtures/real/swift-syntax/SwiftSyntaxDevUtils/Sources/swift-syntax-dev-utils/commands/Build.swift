import ArgumentParser
import Foundation
    #if os(macOS)
    #endif
