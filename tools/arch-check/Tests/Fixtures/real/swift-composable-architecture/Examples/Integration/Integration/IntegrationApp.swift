@_spi(Logging) import ComposableArchitecture
import IssueReporting
import SwiftUI
import TestCases
