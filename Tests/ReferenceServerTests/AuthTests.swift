import Foundation
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Sessions, tokens and DPoP against a real `share-server` process over loopback.
@Suite("reference server: sessions and DPoP")
struct AuthTests {
    @Test("login binds a session to the key; resource requests need token and proof", arguments: ServerEngine.allCases)
    func loginAndResource(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try TestClient(origin: server.origin)
        let login = try await alex.login("alex", "alex-demo-pass")
        #expect(login.status == 201)
        #expect(login.object["token_type"] as? String == "DPoP")
        #expect((login.object["expires_in"] as? Int ?? 0) > 0)
        #expect(login.headers["cache-control"] == "no-store")
        let spaces = try await alex.send("GET", "/api/v1/spaces")
        #expect(spaces.status == 200)
        #expect(spaces.array.map { $0["id"] as? String } == ["s2", "s1"])

        let noProof = try await alex.send("GET", "/api/v1/spaces", proof: false)
        #expect(noProof.status == 401)
        #expect(noProof.code == "invalid_dpop_proof")
        let noToken = try await alex.send("GET", "/api/v1/spaces", token: .some(nil))
        #expect(noToken.status == 401)
        #expect(noToken.code == "invalid_token")
    }

    @Test("a wrong password is refused without saying which part was wrong", arguments: ServerEngine.allCases)
    func wrongPassword(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let client = try TestClient(origin: server.origin)
        let wrong = try await client.login("alex", "nope")
        let unknown = try await client.login("nobody", "nope")
        #expect(wrong.status == 401 && unknown.status == 401)
        #expect(wrong.code == "invalid_credentials" && unknown.code == "invalid_credentials")
    }

    @Test(
        "a proof from another key is refused: the session is bound to its key (cnf.jkt)",
        arguments: ServerEngine.allCases)
    func wrongKey(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let thief = try TestClient(origin: server.origin)
        let stolen = try await thief.send("GET", "/api/v1/spaces", token: .some(alex.accessToken))
        #expect(stolen.status == 401)
        #expect(stolen.code == "invalid_dpop_proof")
        #expect(stolen.headers["www-authenticate"]?.contains("invalid_dpop_proof") == true)
    }

    @Test(
        "replayed jti, stale iat, wrong htu, wrong method and missing ath are each refused",
        arguments: ServerEngine.allCases)
    func proofRules(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let token = try #require(alex.accessToken)
        let url = server.origin + "/api/v1/spaces"

        let proof = try alex.signer.makeProof(method: "GET", url: url, accessToken: token, nonce: nil)
        let first = try await alex.send("GET", "/api/v1/spaces", headers: ["DPoP": proof], proof: false)
        #expect(first.status == 200)
        let replay = try await alex.send("GET", "/api/v1/spaces", headers: ["DPoP": proof], proof: false)
        #expect(replay.status == 401)
        #expect(replay.code == "invalid_dpop_proof")

        let key = alex.signer
        let stale = try ES256ProofSigner(
            key: try alex.crypto.importP256SigningKey(privateScalar: try exportScalar(alex)), crypto: alex.crypto,
            clock: { Int64(Date().timeIntervalSince1970) - 3600 })
        #expect(stale.thumbprint == key.thumbprint)
        let old = try stale.makeProof(method: "GET", url: url, accessToken: token, nonce: nil)
        #expect(try await alex.send("GET", "/api/v1/spaces", headers: ["DPoP": old], proof: false).status == 401)

        let otherURL = try key.makeProof(
            method: "GET", url: server.origin + "/api/v1/threads/search", accessToken: token, nonce: nil)
        #expect(try await alex.send("GET", "/api/v1/spaces", headers: ["DPoP": otherURL], proof: false).status == 401)

        let otherMethod = try key.makeProof(method: "POST", url: url, accessToken: token, nonce: nil)
        #expect(
            try await alex.send("GET", "/api/v1/spaces", headers: ["DPoP": otherMethod], proof: false).status == 401)

        let noAth = try key.makeProof(method: "GET", url: url, accessToken: nil, nonce: nil)
        let missing = try await alex.send("GET", "/api/v1/spaces", headers: ["DPoP": noAth], proof: false)
        #expect(missing.status == 401)
        #expect(missing.code == "invalid_dpop_proof")
    }

    @Test("refresh rotates the pair; the old access token stops working", arguments: ServerEngine.allCases)
    func refreshRotates(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let alex = try await TestClient.demo("alex", on: server)
        let oldAccess = alex.accessToken
        let refreshed = try await alex.send(
            "POST", "/api/v1/auth/refresh", json: ["refresh_token": alex.refreshToken ?? ""], token: .some(nil))
        #expect(refreshed.status == 200)
        alex.adopt(refreshed)
        #expect(alex.accessToken != oldAccess)
        #expect(try await alex.send("GET", "/api/v1/spaces").status == 200)
        #expect(try await alex.send("GET", "/api/v1/spaces", token: .some(oldAccess)).code == "invalid_token")
    }

    @Test(
        "a reused refresh token revokes the family and its children and writes an audit record",
        arguments: ServerEngine.allCases)
    func refreshReuse(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let app = try await TestClient.demo("alex", on: server)
        let child = try await app.send(
            "POST", "/api/v1/auth/extension-sessions", json: ["client_component": "share_ext"])
        #expect(child.status == 201)
        let childAccess = child.object["access_token"] as? String

        let used = try #require(app.refreshToken)
        let first = try await app.send("POST", "/api/v1/auth/refresh", json: ["refresh_token": used], token: .some(nil))
        #expect(first.status == 200)
        app.adopt(first)
        let again = try await app.send("POST", "/api/v1/auth/refresh", json: ["refresh_token": used], token: .some(nil))
        #expect(again.status == 401)
        #expect(again.code == "refresh_reuse")

        #expect(try await app.send("GET", "/api/v1/spaces").code == "session_revoked")
        #expect(try await app.send("GET", "/api/v1/spaces", token: .some(childAccess)).code == "session_revoked")

        // The audit is the user's own: alex, in a new session, sees the record.
        let auditor = try await TestClient.demo("alex", on: server)
        let audit = try await auditor.send("GET", "/api/v1/audit?kind=refresh_reuse")
        let items = audit.object["items"] as? [[String: Any]] ?? []
        #expect(items.count == 1)
        #expect(items.first?["kind"] as? String == "refresh_reuse")
    }

    @Test("a second extension session revokes the first; logout revokes the children", arguments: ServerEngine.allCases)
    func extensionSessions(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let app = try await TestClient.demo("alex", on: server)
        let first = try await app.send(
            "POST", "/api/v1/auth/extension-sessions", json: ["client_component": "share_ext"])
        let second = try await app.send(
            "POST", "/api/v1/auth/extension-sessions", json: ["client_component": "share_ext"])
        #expect(first.status == 201 && second.status == 201)
        let firstToken = first.object["access_token"] as? String
        let secondToken = second.object["access_token"] as? String
        #expect(try await app.send("GET", "/api/v1/spaces", token: .some(firstToken)).code == "session_revoked")
        #expect(try await app.send("GET", "/api/v1/spaces", token: .some(secondToken)).status == 200)

        let childClient = try TestClient(origin: server.origin)
        let nested = try await app.send(
            "POST", "/api/v1/auth/extension-sessions", json: ["client_component": "share_ext"],
            token: .some(secondToken))
        #expect(nested.status == 403)
        _ = childClient

        #expect(try await app.send("POST", "/api/v1/auth/logout").status == 204)
        #expect(try await app.send("GET", "/api/v1/spaces", token: .some(secondToken)).code == "session_revoked")
    }

    @Test(
        "with require_nonce, token endpoints answer 400 use_dpop_nonce and resources 401; one retry succeeds",
        arguments: ServerEngine.allCases)
    func nonces(engine: ServerEngine) async throws {
        let server = try await ServerProcess.start(
            engine,
            seed: [
                "users": [["username": "alex", "password": "pw-alex-123"]],
                "dpop": ["require_nonce": true],
            ])
        defer { server.stop() }
        let alex = try TestClient(origin: server.origin)
        let challenged = try await alex.send(
            "POST", "/api/v1/auth/login", json: ["username": "alex", "password": "pw-alex-123"], token: .some(nil),
            retryNonce: false)
        #expect(challenged.status == 400)
        #expect(challenged.code == "use_dpop_nonce")
        #expect(challenged.headers["dpop-nonce"] != nil)
        let login = try await alex.login("alex", "pw-alex-123")
        #expect(login.status == 201)

        alex.nonce = "stale-nonce"
        let resource = try await alex.send("GET", "/api/v1/spaces", retryNonce: false)
        #expect(resource.status == 401)
        #expect(resource.headers["www-authenticate"]?.contains("use_dpop_nonce") == true)
        #expect(try await alex.send("GET", "/api/v1/spaces").status == 200)
    }

    @Test(
        "bad requests get 4xx problems, never a 5xx",
        arguments: [
            ("POST", "/api/v1/auth/login", "{not json", 400), ("POST", "/api/v1/auth/login", "{\"username\": 5}", 400),
            ("GET", "/api/v1/nowhere", "", 404), ("DELETE", "/api/v1/spaces", "", 405),
        ], ServerEngine.allCases)
    func badRequests(request: (String, String, String, Int), engine: ServerEngine) async throws {
        let (method, path, body, status) = request
        let server = try await ServerProcess.start(engine)
        defer { server.stop() }
        let client = try TestClient(origin: server.origin)
        let response = try await client.send(method, path, body: Data(body.utf8), token: .some(nil))
        #expect(response.status == status)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(response.code != nil)
    }

    @Test(
        "the request log names routes and statuses but never a token, proof or password",
        arguments: ServerEngine.allCases)
    func logIsClean(engine: ServerEngine) async throws {
        let password = "correct-horse-battery-staple"
        let server = try await ServerProcess.start(
            engine, seed: ["users": [["username": "alex", "password": password]]])
        let alex = try TestClient(origin: server.origin)
        try await alex.login("alex", password)
        _ = try await alex.send("GET", "/api/v1/spaces")
        // The server writes a request's line when the request is finished,
        // which may be after the answer reached the client: stop it first
        // (it finishes and logs every request), then read.
        _ = server.stop(removeFiles: false)
        let log = server.log
        server.stop()
        #expect(log.contains("GET /api/v1/spaces 200"))
        for secret in [alex.accessToken ?? "-", alex.refreshToken ?? "-", password, "eyJ"] {
            #expect(!log.contains(secret))
        }
    }

    /// The private scalar of a client's key, to build a second signer with another clock.
    private func exportScalar(_ client: TestClient) throws -> [UInt8] {
        try client.key.exportPrivateScalar()
    }
}
