@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import XCTest
