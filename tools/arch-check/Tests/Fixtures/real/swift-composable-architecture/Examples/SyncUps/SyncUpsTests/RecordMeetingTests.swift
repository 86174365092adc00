import ComposableArchitecture
import Foundation
import Testing
@testable import SyncUps
