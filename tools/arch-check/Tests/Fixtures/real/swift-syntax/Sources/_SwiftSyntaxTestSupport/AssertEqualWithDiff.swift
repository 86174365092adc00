#if compiler(>=6)
public import Foundation
private import XCTest
private import _SwiftSyntaxGenericTestSupport
#else
import Foundation
import XCTest
import _SwiftSyntaxGenericTestSupport
#endif
