import Combine
import ComposableArchitecture
@preconcurrency import XCTest
