@_spi(Testing) import SwiftCompilerPluginMessageHandling
import XCTest
