import SwiftDiagnostics
import XCTest
