import Foundation
import SwiftRefactor
import XcodeKit
