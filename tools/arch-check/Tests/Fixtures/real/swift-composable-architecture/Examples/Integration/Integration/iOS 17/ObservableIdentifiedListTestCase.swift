@_spi(Logging) import ComposableArchitecture
import SwiftUI
