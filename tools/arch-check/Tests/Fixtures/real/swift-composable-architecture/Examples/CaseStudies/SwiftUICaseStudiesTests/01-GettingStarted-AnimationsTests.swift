import Clocks
import ComposableArchitecture
import Testing
@testable import SwiftUICaseStudies
