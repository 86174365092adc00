import Combine
@_spi(Internals) import ComposableArchitecture
import CustomDump
import XCTest
import os.signpost
