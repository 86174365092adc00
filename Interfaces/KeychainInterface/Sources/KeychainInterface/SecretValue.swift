/// The bytes of a secret, wrapped so that printing, logging, interpolating
/// or dumping it never shows them.
///
/// Only ``withBytes(_:)`` and ``utf8String`` reach the value, which makes
/// every place that handles the plain secret easy to find.
public struct SecretValue: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    private let storage: [UInt8]

    /// Wraps raw secret bytes.
    public init(bytes: [UInt8]) { storage = bytes }

    /// Wraps the UTF-8 bytes of a secret string (a token, a URL).
    public init(utf8 text: String) { storage = Array(text.utf8) }

    /// The number of bytes, which is not itself secret.
    public var count: Int { storage.count }

    /// Gives the plain bytes to `body`; keep the use short.
    public func withBytes<T>(_ body: ([UInt8]) throws -> T) rethrows -> T { try body(storage) }

    /// The value as UTF-8 text, or nil when it is not valid UTF-8.
    public var utf8String: String? { String(validating: storage, as: UTF8.self) }

    public var description: String { "<secret: \(storage.count) bytes>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["redacted": description]) }
}
