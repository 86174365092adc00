import SyntaxSupport
import XCTest
