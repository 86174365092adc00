import NetHTTP

public struct Search {}
