@_spi(Logging) import ComposableArchitecture
import SwiftUI
import XCTest
    #if DEBUG
    #endif
