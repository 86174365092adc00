@_spi(Internals) import CasePaths
import Combine
import ConcurrencyExtras
import CustomDump
@_spi(Beta) import Dependencies
import Foundation
import IssueReporting
@_spi(SharedChangeTracking) import Sharing
