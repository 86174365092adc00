@preconcurrency import Combine
import ComposableArchitecture
import XCTest
