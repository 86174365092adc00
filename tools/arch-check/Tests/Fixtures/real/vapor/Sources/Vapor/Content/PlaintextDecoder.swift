public import NIOCore
public import HTTPTypes
