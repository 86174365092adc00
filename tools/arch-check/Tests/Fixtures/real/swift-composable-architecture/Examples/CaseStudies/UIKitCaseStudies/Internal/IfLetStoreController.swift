import Combine
import ComposableArchitecture
import UIKit
