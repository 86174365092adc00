import ComposableArchitecture
import Testing
@testable import CounterApp
