import MacroExamplesInterface
#if canImport(SwiftUI)
import SwiftUI
#endif
