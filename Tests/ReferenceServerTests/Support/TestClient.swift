import Foundation
import FoundationNetworking
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitOpenSSLCrypto
import ShareKitSystemTesting
import ShareKitTestSupport

/// An HTTP client for the reference server that signs every request with
/// DPoP the way a real client does (its own P-256 key, `ath` on resource
/// requests, one retry with a new nonce), so end-to-end tests speak the
/// wire contract exactly.
final class TestClient: @unchecked Sendable {
    /// A response, with headers keyed in lowercase.
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// The body as a JSON object.
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        /// The body as a JSON array.
        var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] ?? [] }
        /// The problem `code`, or the OAuth `error` of a token endpoint.
        var code: String? { object["code"] as? String ?? object["error"] as? String }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Where requests go (a test may move the client to another server process).
    var origin: String
    /// The origin proofs name in `htu`: ``origin`` unless the servers have a
    /// public origin of their own (`--public-origin`).
    var proofOrigin: String?
    let crypto: any CryptoProvider = OpenSSLCryptoProvider()
    let key: any P256SigningKey
    let signer: ES256ProofSigner
    var accessToken: String?
    var refreshToken: String?
    var sessionID: String?
    var nonce: String?
    private let session: URLSession

    /// A client with a fresh device key.
    init(origin: String, key: (any P256SigningKey)? = nil) throws {
        self.origin = origin
        let key = try key ?? crypto.generateP256SigningKey()
        self.key = key
        signer = try ES256ProofSigner(key: key, crypto: crypto)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    /// A new client logged in as one of the demo seed's people, whose
    /// passwords are `<username>-demo-pass`.
    /// - Throws: when the login does not answer 201.
    static func demo(_ username: String, on server: ServerProcess) async throws -> TestClient {
        let client = try TestClient(origin: server.origin)
        let response = try await client.login(username, "\(username)-demo-pass")
        guard response.status == 201 else { throw ServerProcessError("login as \(username): \(response.status)") }
        return client
    }

    /// Logs in and keeps the tokens.
    @discardableResult
    func login(_ username: String, _ password: String) async throws -> Response {
        let response = try await send(
            "POST", "/api/v1/auth/login",
            json: ["username": username, "password": password, "client_component": "app"],
            token: nil)
        if response.status == 201 { adopt(response) }
        return response
    }

    /// Keeps the tokens of a token response.
    func adopt(_ response: Response) {
        accessToken = response.object["access_token"] as? String
        refreshToken = response.object["refresh_token"] as? String
        sessionID = response.object["session_id"] as? String
    }

    /// Sends a request with a DPoP proof (and the access token unless `token` says otherwise).
    /// - Parameters:
    ///   - json: a JSON body, or
    ///   - body: raw bytes.
    ///   - token: the token for `Authorization: DPoP`; the default is the session's access token, nil for none.
    ///   - proof: false to send no DPoP header.
    ///   - retryNonce: whether to repeat once on `use_dpop_nonce`.
    func send(
        _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, headers: [String: String] = [:],
        token: String?? = .none, proof: Bool = true, retryNonce: Bool = true
    ) async throws -> Response {
        let bearer: String? = token ?? accessToken
        var response = try await once(
            method, path, json: json, body: body, headers: headers, token: bearer, proof: proof)
        if retryNonce, response.code == "use_dpop_nonce", response.headers["dpop-nonce"] != nil {
            response = try await once(
                method, path, json: json, body: body, headers: headers, token: bearer, proof: proof)
        }
        return response
    }

    private func once(
        _ method: String, _ path: String, json: Any?, body: Data?, headers: [String: String], token: String?,
        proof: Bool
    ) async throws -> Response {
        let url = URL(string: origin + path)!
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
        }
        if let token { request.setValue("DPoP \(token)", forHTTPHeaderField: "Authorization") }
        if proof {
            let signed = try signer.makeProof(
                method: method, url: (proofOrigin ?? origin) + path, accessToken: token, nonce: nonce)
            request.setValue(signed, forHTTPHeaderField: "DPoP")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, urlResponse) = try await session.data(for: request)
        let http = urlResponse as! HTTPURLResponse
        var lowered: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { lowered[key.lowercased()] = value }
        }
        if let fresh = lowered["dpop-nonce"] { nonce = fresh }
        return Response(status: http.statusCode, headers: lowered, body: data)
    }
}
