import NIOPosix
@testable import Vapor
import Testing
import Foundation
