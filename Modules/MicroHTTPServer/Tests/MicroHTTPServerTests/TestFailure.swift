import ShareKitSystemTesting

/// An error a test handler throws to stand for a bug in server code.
enum TestFailure: Error, CustomStringConvertible {
    case boom

    var description: String { "boom: the test handler failed on purpose" }
}
