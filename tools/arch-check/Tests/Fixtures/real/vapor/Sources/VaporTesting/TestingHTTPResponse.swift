public import NIOCore
public import Vapor
public import HTTPTypes
