import Foundation
import MacroExamplesInterface
#if canImport(SwiftUI)
#endif
