public import SessionsInterface

/// The accounts of this device (``accounts``, in the keychain beside their
/// sessions), as every command has always asked the root for them.
extension ClientAssembly {
    /// The current account, from the keychain: the one `share login` or
    /// `share accounts use` chose last.
    /// - Returns: the account, or nil when no server is current.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    public func signedInAccount() throws -> SignedInAccount? {
        try accounts.current()
    }

    /// The account at a server: its username when one is recorded (nil
    /// otherwise: then the server is simply not one this device knows a
    /// name for).
    /// - Parameter origin: the server's origin.
    /// - Returns: the account.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    public func account(at origin: String) throws -> SignedInAccount {
        try accounts.account(at: origin)
    }

    /// Every account on this device (a recorded username or a stored
    /// session), sorted by server, the current one marked.
    /// - Returns: the accounts.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    public func storedAccounts() throws -> [StoredAccount] {
        try accounts.storedAccounts()
    }

    /// Records the account `share login` signed in and makes it the current
    /// one; the accounts at other servers stay.
    /// - Parameter account: the server's origin and the username.
    /// - Throws: `KeychainError` when the keychain cannot be written.
    public func recordAccount(_ account: SignedInAccount) throws {
        try accounts.record(account)
    }

    /// Makes the account at `origin` the current one (`share accounts use`).
    /// - Parameter origin: the server's origin; its account must be stored.
    /// - Returns: the account, or nil when this device has none at `origin` (nothing changes then).
    /// - Throws: `KeychainError` when the keychain cannot be read or written.
    public func useAccount(at origin: String) throws -> SignedInAccount? {
        try accounts.use(at: origin)
    }

    /// Forgets the account at `origin` (`share logout`): its username, and
    /// the choice of the current account when it was this one. Its sessions
    /// and its shared-state values are deleted by their owners.
    /// - Parameter origin: the server's origin.
    /// - Throws: `KeychainError` when the keychain cannot be changed.
    public func forgetAccount(at origin: String) throws {
        try accounts.forget(at: origin)
    }
}
