import NIOCore
public import HTTPTypes
