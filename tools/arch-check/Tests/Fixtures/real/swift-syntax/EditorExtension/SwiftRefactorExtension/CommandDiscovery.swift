import Darwin
import Foundation
import MachO
import SwiftRefactor
