import Configuration
import ConsoleLogger
import Vapor
import Logging
