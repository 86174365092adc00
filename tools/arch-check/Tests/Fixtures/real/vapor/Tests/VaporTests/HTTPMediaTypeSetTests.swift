@testable import Vapor
import Testing
import HTTPTypes
