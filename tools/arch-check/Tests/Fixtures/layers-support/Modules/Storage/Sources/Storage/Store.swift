/// A store of bytes.
public struct Store {}
