import CustomDump
import Foundation
