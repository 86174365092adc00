import Foundation
    #if canImport(Darwin) || canImport(Glibc) || canImport(Bionic)
    #endif
