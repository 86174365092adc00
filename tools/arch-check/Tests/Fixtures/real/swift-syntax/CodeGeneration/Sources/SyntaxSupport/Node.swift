import Foundation
import SwiftSyntax
