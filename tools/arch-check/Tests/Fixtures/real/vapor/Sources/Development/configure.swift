import Vapor
import NIOConcurrencyHelpers
import X509
import Logging
import SwiftASN1
