import ComposableArchitecture
import Testing
@testable import tvOSCaseStudies
