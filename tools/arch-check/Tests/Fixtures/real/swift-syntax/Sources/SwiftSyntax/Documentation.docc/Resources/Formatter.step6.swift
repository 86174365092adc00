import Foundation
import SwiftParser
import SwiftSyntax
