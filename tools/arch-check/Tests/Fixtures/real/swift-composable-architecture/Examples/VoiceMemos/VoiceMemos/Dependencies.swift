import Dependencies
import SwiftUI
