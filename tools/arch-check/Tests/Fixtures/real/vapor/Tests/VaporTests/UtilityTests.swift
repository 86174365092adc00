@testable import Vapor
import Testing
