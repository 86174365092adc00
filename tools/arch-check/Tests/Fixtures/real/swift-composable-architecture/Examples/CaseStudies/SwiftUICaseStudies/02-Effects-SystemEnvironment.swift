import ComposableArchitecture
import Foundation
import SwiftUI
#if DEBUG
  import XCTestDynamicOverlay
#endif
