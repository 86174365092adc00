import ComposableArchitecture
import Testing
@testable import SyncUps
