import ShareKitCore
import ShareKitSQLInterface

/// The audit records (listAudit): security-relevant events, each naming the
/// user it concerns, so that listAudit can answer a caller only their own.
enum Audit {
    /// Writes one audit record.
    /// - Parameters:
    ///   - server: the server.
    ///   - kind: `refresh_reuse`, `refresh_retry`, `login_throttled`, ...
    ///   - username: the user the record concerns, nil when none is known
    ///     (a throttled address): such records are for operators only.
    ///   - sessionID: the session, when there is one.
    ///   - familyID: the session's family, when there is one.
    ///   - address: the client address, for a throttled login.
    static func record(
        _ server: ReferenceServer, kind: String, username: String?, sessionID: String? = nil,
        familyID: String? = nil, address: String? = nil
    ) throws {
        func value(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
        try server.db.execute(
            "INSERT INTO audit (kind, session_id, family_id, at, username, address) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(kind), value(sessionID), value(familyID),
                .text(RFC3339.string(server.clock(), precision: .milliseconds)), value(username), value(address),
            ])
    }
}
