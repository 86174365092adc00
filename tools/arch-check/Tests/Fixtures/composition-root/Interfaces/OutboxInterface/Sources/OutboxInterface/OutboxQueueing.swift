/// The send queue.
public protocol OutboxQueueing: Sendable {}
