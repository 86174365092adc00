@_spi(Testing) import SwiftSyntax
import XCTest
    #if !arch(x86_64) && !arch(arm64)
    #endif
    #if !arch(x86_64) && !arch(arm64)
    #endif
