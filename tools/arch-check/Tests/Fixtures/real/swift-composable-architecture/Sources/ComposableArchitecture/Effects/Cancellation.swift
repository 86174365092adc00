@preconcurrency import Combine
import Foundation
