import AppCore
import ComposableArchitecture
import LoginUIKit
import NewGameUIKit
import SwiftUI
import UIKit
