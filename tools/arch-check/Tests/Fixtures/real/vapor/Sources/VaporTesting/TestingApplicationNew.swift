public import Vapor
public import HTTPTypes
public import NIOCore
public import Testing
