import NetCore

public struct FakeConnection {}
