import Outbox

/// The server's composition root: it may name modules too.
public enum ShareServerKit {}
