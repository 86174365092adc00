import Foundation
import SwiftUI
