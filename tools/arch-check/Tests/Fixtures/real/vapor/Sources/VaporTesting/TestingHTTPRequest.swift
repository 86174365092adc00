public import NIOCore
import NIOConcurrencyHelpers
public import Vapor
public import HTTPTypes
