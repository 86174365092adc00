import Combine
@_spi(Internals) import ComposableArchitecture
import SwiftUI
import XCTest
