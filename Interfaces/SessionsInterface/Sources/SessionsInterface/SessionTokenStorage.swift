/// Where the tokens of each family are kept: one item per role (and per
/// server, chosen when the storage is made) in the keychain group the CLI
/// and the daemon share.
///
/// Implementations must write atomically and durably: once
/// ``write(_:for:)`` returns, a crash leaves the new tokens, and a reader
/// in any process sees either the old or the new pair, never a mix. That is
/// what lets a refresh persist the new refresh token before the new access
/// token is used.
public protocol SessionTokenStorage: Sendable {
    /// Reads a family's tokens.
    /// - Parameter role: the family.
    /// - Returns: the tokens, or nil when none are stored.
    /// - Throws: ``SessionError/failed(_:)`` when the item cannot be read or decoded.
    func read(_ role: SessionRole) throws(SessionError) -> SessionTokens?

    /// Replaces a family's tokens, atomically and durably.
    /// - Parameters:
    ///   - tokens: the new tokens.
    ///   - role: the family.
    /// - Throws: ``SessionError/failed(_:)`` when they could not be stored.
    func write(_ tokens: SessionTokens, for role: SessionRole) throws(SessionError)

    /// Deletes a family's tokens; deleting nothing is not an error.
    /// - Parameter role: the family.
    /// - Throws: ``SessionError/failed(_:)`` when the keychain cannot be changed.
    func delete(_ role: SessionRole) throws(SessionError)
}
