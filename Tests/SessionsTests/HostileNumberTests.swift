import ShareKitHTTPInterfaceTesting
import ShareKitKeychainInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Testing

@testable import ShareKitSessions
@testable import ShareKitSessionsInterface

/// Numbers a hostile server (or a tampered keychain item) can send: none
/// may trap; a lifetime that cannot be right is cut or refused.
@Suite("sessions: hostile numbers")
struct HostileNumberTests {
    static func answer(expiresIn: String, refreshExpiresIn: String = "3600") -> [UInt8] {
        Array(
            """
            {"session_id":"ses_1","access_token":"a","refresh_token":"r","token_type":"DPoP",\
            "expires_in":\(expiresIn),"refresh_expires_in":\(refreshExpiresIn)}
            """.utf8)
    }

    @Test("expires_in of 2^63-1 is cut to ten years, from a send time near the end of Int64 too")
    func hugeLifetime() throws {
        let tokens = try #require(TokenResponse.decode(Self.answer(expiresIn: "9223372036854775807"), sentAt: 1000))
        #expect(tokens.accessExpiresAt == 1000 + TokenResponse.maximumLifetime)
        #expect(TokenResponse.decode(Self.answer(expiresIn: "60"), sentAt: Int64.max - 10) == nil)
    }

    @Test(
        "a lifetime of zero, below zero or not a whole number is no token answer",
        arguments: ["0", "-5", "1.5", "\"60\"", "1e300"])
    func badLifetime(_ value: String) {
        #expect(TokenResponse.decode(Self.answer(expiresIn: value), sentAt: 1000) == nil)
    }

    @Test("whether to refresh never traps, whatever the stored times")
    func refreshDecisionIsTotal() {
        let extremes: [Int64] = [.min, -1, 0, 1, 1_700_000_000, .max - 1, .max]
        for expires in extremes {
            for obtained in extremes {
                let tokens = SessionTokens(
                    sessionID: "s", accessToken: SecretValue(utf8: "a"), accessExpiresAt: expires,
                    refreshToken: SecretValue(utf8: "r"), refreshExpiresAt: expires, obtainedAt: obtained)
                _ = tokens.accessTokenNeedsRefresh(at: 1_700_000_000, leeway: .max)
                _ = tokens.accessTokenNeedsRefresh(at: .min, leeway: 60)
            }
        }
    }

    @Test("a keychain item with times outside 1970...9999 is not a stored session")
    func storedTimesRangeChecked() {
        let good = SessionTokens(
            sessionID: "s", accessToken: SecretValue(utf8: "a"), accessExpiresAt: 1_700_000_600,
            refreshToken: SecretValue(utf8: "r"), refreshExpiresAt: 1_700_086_400, obtainedAt: 1_700_000_000)
        #expect(StoredSessionCoding.decode(StoredSessionCoding.encode(good)) == good)
        var bad = good
        bad.accessExpiresAt = .max
        #expect(StoredSessionCoding.decode(StoredSessionCoding.encode(bad)) == nil)
        bad = good
        bad.obtainedAt = -1
        #expect(StoredSessionCoding.decode(StoredSessionCoding.encode(bad)) == nil)
    }
}
