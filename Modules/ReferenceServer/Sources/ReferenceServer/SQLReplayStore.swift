import DPoPInterface
import SQLInterface

/// DPoP `jti` replay detection in the server's database, so a proof
/// replayed after a restart, or to a second server process on the same
/// database, is still refused.
struct SQLReplayStore: DPoPReplayStore {
    let db: any SQLDatabase

    func recordFirstUse(of key: String, now: Int64, expiresAt: Int64) throws -> Bool {
        try db.transaction {
            try db.execute("DELETE FROM dpop_jti WHERE expires_at < ?", [.integer(now)])
            do {
                try db.execute(
                    "INSERT INTO dpop_jti (key, expires_at) VALUES (?, ?)", [.text(key), .integer(expiresAt)])
                return true
            } catch SQLError.constraint(let kind, _) where kind.isDuplicate {
                return false
            }
        }
    }
}
