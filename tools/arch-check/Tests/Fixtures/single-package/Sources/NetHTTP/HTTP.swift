@testable import NetCore

public struct Request {}
