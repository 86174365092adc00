import ShareKitSystemTesting

/// A failed socket call in a test, with its `errno`.
struct SocketFailure: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { "socket error \(errno)" }
}
