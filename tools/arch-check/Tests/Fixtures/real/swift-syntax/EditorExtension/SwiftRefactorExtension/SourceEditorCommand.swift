import Foundation
import SwiftParser
import SwiftRefactor
import SwiftSyntax
import XcodeKit
