import Foundation
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The client against the real reference server: a DPoP-bound login and a
/// resource call, with and without the server demanding nonces.
@Suite("DPoPHTTPClient over CurlHTTPClient against share-server")
struct ShareServerTests {
    let crypto = OpenSSLCryptoProvider()

    func signedClient() throws -> DPoPHTTPClient {
        let signer = try ES256ProofSigner(key: try crypto.generateP256SigningKey(), crypto: crypto)
        return DPoPHTTPClient(
            client: try CurlHTTPClient(), signer: signer, nonces: DPoPNonceHandler(cache: InMemoryNonceCache()))
    }

    func login(_ client: DPoPHTTPClient, origin: String, username: String, password: String) async throws
        -> HTTPClientResponse
    {
        let body = try JSONSerialization.data(withJSONObject: [
            "username": username, "password": password, "client_component": "app",
        ])
        return try await client.send(
            HTTPClientRequest(
                method: .post, url: origin + "/api/v1/auth/login", headers: ["Content-Type": "application/json"],
                body: .bytes(Array(body))))
    }

    static func json(_ response: HTTPClientResponse) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(response.body))
    }

    @Test("login, then GET /spaces with the access token (demo seed)")
    func loginAndResource() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try signedClient()
        let login = try await login(client, origin: server.origin, username: "alex", password: "alex-demo-pass")
        #expect(login.status == 201, "\(String(decoding: login.body.prefix(300), as: UTF8.self))")
        let token = try #require((Self.json(login) as? [String: Any])?["access_token"] as? String)

        let spaces = try await client.send(HTTPClientRequest(url: server.origin + "/api/v1/spaces"), accessToken: token)
        #expect(spaces.status == 200)
        let names = (Self.json(spaces) as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(!names.isEmpty)

        // Without the token the same resource is refused: the token is what authorizes.
        let anonymous = try await client.send(HTTPClientRequest(url: server.origin + "/api/v1/spaces"))
        #expect(anonymous.status == 401)
        #expect(!server.log.contains(token), "the server log never holds a token")
    }

    @Test("a server that requires nonces: login and the resource call each succeed after one repetition")
    func requiredNonces() async throws {
        let seed: [String: Any] = [
            "users": [["username": "alex", "password": "a-test-password"]],
            "dpop": ["require_nonce": true, "nonce_ttl_seconds": 60, "iat_window_seconds": 60],
        ]
        let server = try ServerProcess(seed: seed)
        defer { server.stop() }
        let client = try signedClient()
        let login = try await login(client, origin: server.origin, username: "alex", password: "a-test-password")
        #expect(login.status == 201, "\(String(decoding: login.body.prefix(300), as: UTF8.self))")
        let token = try #require((Self.json(login) as? [String: Any])?["access_token"] as? String)
        let spaces = try await client.send(HTTPClientRequest(url: server.origin + "/api/v1/spaces"), accessToken: token)
        #expect(spaces.status == 200)

        let lines = server.log.split(separator: "\n")
        let logins = lines.filter { $0.contains("POST /api/v1/auth/login") }
        #expect(logins.count <= 2, "at most one repetition of the login")
        #expect(!server.log.contains(token))
        print(
            "share-server log with require_nonce:\n" + lines.filter { $0.contains("/api/v1/") }.joined(separator: "\n"))
    }
}
