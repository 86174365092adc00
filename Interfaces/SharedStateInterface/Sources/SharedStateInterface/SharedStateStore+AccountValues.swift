extension SharedStateStore {
    /// Removes every value of an account: its limits and its recent targets
    /// (``SharedStateKey/accountKeys`` scoped to it; logout).
    /// - Parameter account: whose values.
    /// - Throws: ``SharedStateError`` when the state cannot be written.
    public func clearAccountValues(of account: AccountScope) throws {
        for key in SharedStateKey.accountKeys { try set(nil, for: key.scoped(to: account)) }
    }

    /// Removes the values that belong to no account (logout of the current
    /// account): the settings the daemon wrote for the account it served
    /// (``SharedStateKey/instanceKeys``: `notify.preview_mode`,
    /// `client.push.fetch_timeout`) and what earlier versions kept for
    /// whichever server they talked to.
    /// - Throws: ``SharedStateError`` when the state cannot be written.
    public func clearUnscopedValues() throws {
        for key in SharedStateKey.instanceKeys + [.recentTargets] { try set(nil, for: key) }
    }

    /// Moves what earlier versions kept without an account (one list of
    /// recent targets and one set of limits, the unscoped
    /// ``SharedStateKey/accountKeys``) to `owner`, the account it can only
    /// have come from; with no owner (nobody can tell which server it
    /// described) it is dropped: a recent target shown under the wrong
    /// server sends there. The owner's own value wins over the old one; the
    /// old keys go either way.
    /// - Parameter owner: the account the old values are moved to, nil to drop them.
    /// - Returns: whether anything was found.
    /// - Throws: ``SharedStateError`` when the state cannot be read or written
    ///   (the next start tries again; nothing reads the old keys meanwhile).
    @discardableResult
    public func moveUnscopedAccountValues(to owner: AccountScope?) throws -> Bool {
        try moveUnscopedAccountValues(toOwner: { owner })
    }

    /// ``moveUnscopedAccountValues(to:)`` with the owner found only when
    /// there is something to move: finding it reads the keychain, and every
    /// program start calls this, almost always with nothing left to move.
    /// - Parameter owner: finds the account the old values are moved to
    ///   (nil drops them); when it throws, nothing moves.
    /// - Returns: whether anything was found.
    /// - Throws: what `owner` throws, or ``SharedStateError`` when the state
    ///   cannot be read or written.
    @discardableResult
    public func moveUnscopedAccountValues(toOwner owner: () throws -> AccountScope?) throws -> Bool {
        let snapshot = try snapshot()
        let found = SharedStateKey.accountKeys.filter { snapshot[$0.name] != nil }
        guard !found.isEmpty else { return false }
        if let owner = try owner() {
            for key in found {
                let old = snapshot[key.name]
                try update(key.scoped(to: owner)) { mine in mine ?? old }
            }
        }
        for key in found { try set(nil, for: key) }
        return true
    }
}
