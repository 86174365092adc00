import Core

public struct Client {}
