import Combine
import Foundation
