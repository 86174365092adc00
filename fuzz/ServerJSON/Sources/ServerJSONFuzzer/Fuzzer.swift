import Foundation
import FuzzSupport
import ShareKitDPoPInterface
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitOpenSSLCrypto
import ShareKitReferenceServer
import ShareKitSQLiteStore

/// Accepts every proof as coming from one fixed key, so each request gets
/// past DPoP and the fuzzer spends its time on the JSON bodies behind it
/// (the verifier has its own fuzzer, DPoPProof).
struct AcceptingVerifier: DPoPProofVerifier {
    let jwk: JWK
    let counter = Counter()

    func verify(_ input: DPoPVerificationInput) throws(DPoPError) -> DPoPVerifiedProof {
        DPoPVerifiedProof(
            jwk: jwk, thumbprint: "fuzz-thumbprint", jti: "jti-\(counter.next())", method: input.method,
            url: input.url, issuedAt: Int64(Date().timeIntervalSince1970), nonce: nil, accessTokenHash: nil)
    }
}

/// A thread-safe counter for unique `jti` values.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

/// The server under test, with the demo seed (threads t1..t4, channels c1..)
/// in a private in-memory database, and an access token of a demo user.
struct Harness {
    let server: ReferenceServer
    let accessToken: String
    let refreshToken: String

    init() throws {
        var settings = DemoSeed.seed.settings
        // One PBKDF2 round: login's cost would otherwise dominate every run.
        settings.passwordIterations = 1
        let uploads = NSTemporaryDirectory() + "share-fuzz-uploads-\(getpid())"
        let verifier = AcceptingVerifier(
            jwk: try JWK(
                x: "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs", y: "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"))
        let server = try ReferenceServer(
            database: try SQLiteDatabase(path: ":memory:"), crypto: OpenSSLCryptoProvider(), verifier: verifier,
            settings: settings, uploadsDirectory: uploads)
        try server.loadSeed(DemoSeed.seed)
        self.server = server
        let demo = DemoSeed.passwords[0]
        let login = #"{"username":"\#(demo.username)","password":"\#(demo.password)"}"#
        let response = try server.respond(
            to: Self.head(.post, "/api/v1/auth/login", token: nil), body: Array(login.utf8))
        guard response.status.rawValue == 201, case .bytes(let bytes) = response.body,
            let json = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let access = json["access_token"] as? String, let refresh = json["refresh_token"] as? String
        else { fatalError("harness: the demo login failed (\(response.status)); the fuzzer would test nothing") }
        accessToken = access
        refreshToken = refresh
    }

    static func head(_ method: HTTPMethod, _ path: String, token: String?) -> HTTPRequestHead {
        var headers: HTTPFields = ["DPoP": "proof", "Content-Type": "application/json"]
        if let token { headers.add("Authorization", "DPoP " + token) }
        return HTTPRequestHead(method: method, target: path, headers: headers)
    }
}

/// The operations that take a JSON body; the first input byte picks one.
let routes: [(method: HTTPMethod, path: String, authenticated: Bool)] = [
    (.post, "/api/v1/auth/login", false),
    (.post, "/api/v1/threads/t1/messages", true),
    (.post, "/api/v1/auth/refresh", false),
    (.post, "/api/v1/auth/extension-sessions", true),
    (.post, "/api/v1/channels/c1/messages", true),
    (.post, "/api/v1/channels/c1/threads", true),
    (.post, "/api/v1/uploads", true),
    (.patch, "/api/v1/settings", true),
    (.post, "/api/v1/push/registrations", true),
    (.post, "/api/v1/client-metrics", true),
]

let harness: Harness = {
    do { return try Harness() } catch { fatalError("harness: \(error)") }
}()

/// One input: a route selector byte, then the request body. The handler
/// must answer every body, and a body alone must never earn a 5xx (the
/// server promises a `400` naming the member); a 5xx, a trap or a sanitizer
/// report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let route = routes[Int(data[0]) % routes.count]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let head = Harness.head(route.method, route.path, token: route.authenticated ? harness.accessToken : nil)
    let response: HTTPResponse
    do {
        response = try harness.server.respond(to: head, body: body)
    } catch {
        fatalError("\(route.path) threw instead of answering: \(error)")
    }
    if response.status.rawValue >= 500 {
        var detail = ""
        if case .bytes(let bytes) = response.body { detail = String(decoding: bytes, as: UTF8.self) }
        fatalError("\(route.path) answered \(response.status) to a body: \(detail)")
    }
    return 0
}

@_cdecl("ServerJSONFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
