import Foundation

/// Sends messages.
public protocol MessageSending: Sendable {}
