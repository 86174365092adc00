import CustomDump
import SwiftUI
