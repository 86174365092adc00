/// A check inside a helper command failed; `main.swift` prints the message
/// and exits 1. Messages describe what differed, never a secret value.
struct HelperFailure: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    /// Makes a failure.
    /// - Parameter description: what went wrong.
    init(_ description: String) { self.description = description }
}
