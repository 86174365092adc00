import struct NetCore.Buffer

public func listen() {}
