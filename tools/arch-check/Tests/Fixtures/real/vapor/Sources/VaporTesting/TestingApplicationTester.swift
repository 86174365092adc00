public import NIOCore
public import Testing
public import Vapor
public import HTTPTypes
