import ComposableArchitecture
import SwiftUI
import UIKit
