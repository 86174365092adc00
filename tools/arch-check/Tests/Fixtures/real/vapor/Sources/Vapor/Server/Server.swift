public import ServiceLifecycle
public import NIOCore
