/// The small key-value state of the app group, shared by the CLI, the
/// daemon and the notifier.
///
/// Writes from several processes at once must not lose updates:
/// ``update(_:_:)`` is an atomic read-modify-write across processes.
public protocol SharedStateStore: Sendable {
    /// Reads a value.
    /// - Returns: the value, or nil when the key is unset.
    /// - Throws: ``SharedStateError`` when the state cannot be read.
    func value(for key: SharedStateKey) throws -> String?

    /// Sets or (with nil) removes a value.
    /// - Throws: ``SharedStateError`` when the state cannot be written.
    func set(_ value: String?, for key: SharedStateKey) throws

    /// Reads, transforms and writes one value as one step that no other
    /// writer, in this process or another, can interleave with.
    /// - Parameter transform: gets the current value, returns the new one (nil removes it).
    /// - Returns: the value written.
    /// - Throws: what `transform` throws, or ``SharedStateError``.
    @discardableResult
    func update(_ key: SharedStateKey, _ transform: (String?) throws -> String?) throws -> String?

    /// A snapshot of every key and value, read as one version of the state:
    /// for `share status`, for tests that check what the state holds, and
    /// for readers of several values at once (an account's limits).
    /// - Throws: ``SharedStateError`` when the state cannot be read.
    func snapshot() throws -> [String: String]

    /// Moves the values of retired keys (``SharedStateKey/isRetired(_:)``,
    /// written by earlier versions) out of the state, once: `move` gets
    /// them and puts what is still wanted where it belongs now (the
    /// keychain); when it returns, they are removed in the same locked step,
    /// so two programs starting at once never both move them and nothing is
    /// lost when one of them dies halfway. `move` is not called when there
    /// is nothing retired; when it throws, the state keeps the values. A
    /// state that cannot be decoded is left alone for the next ordinary
    /// operation, which reports it.
    /// - Parameter move: gets the retired values by key name.
    /// - Returns: whether anything was moved.
    /// - Throws: what `move` throws, or ``SharedStateError``.
    @discardableResult
    func takeRetiredValues(_ move: ([String: String]) throws -> Void) throws -> Bool
}

extension SharedStateStore {
    /// Adds `delta` to an integer counter (missing counts as 0) atomically.
    /// - Returns: the new value.
    /// - Throws: ``SharedStateError/notAnInteger(key:)`` when the value is not a number.
    @discardableResult
    public func increment(_ key: SharedStateKey, by delta: Int64 = 1) throws -> Int64 {
        var result: Int64 = 0
        try update(key) { current in
            guard let old = current.map({ Int64($0) }) ?? 0 else { throw SharedStateError.notAnInteger(key: key.name) }
            result = old + delta
            return String(result)
        }
        return result
    }

    /// Reads an integer value.
    /// - Throws: ``SharedStateError/notAnInteger(key:)`` when the value is not a number.
    public func integer(for key: SharedStateKey) throws -> Int64? {
        guard let text = try value(for: key) else { return nil }
        guard let n = Int64(text) else { throw SharedStateError.notAnInteger(key: key.name) }
        return n
    }
}
