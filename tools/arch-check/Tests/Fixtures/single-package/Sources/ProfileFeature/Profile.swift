import NetHTTP

public struct Profile {}
