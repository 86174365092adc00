import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// The server side of the DPoP nonce dance for `/dpop/token` (token
/// endpoint: `400 {"error":"use_dpop_nonce"}`) and `/dpop/resource`
/// (`401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"`). It records
/// every attempt (proof, authorization, body digest) so a test can check
/// what the client sent; proofs are checked by the test, not printed.
final class DPoPChallenger: Sendable {
    enum Mode: Sendable {
        /// Challenge until the proof carries the latest nonce handed out, then answer 200.
        case challengeUntilCurrent
        /// Challenge every request, each time with a new nonce.
        case alwaysChallenge
        /// Challenge every request with the nonce the proof already carries (nothing changed).
        case challengeWithSentNonce
        /// Answer 200 with a new `DPoP-Nonce` on every response.
        case rotateOnSuccess
    }

    /// One request as the server saw it.
    struct Attempt: Sendable {
        var method: String
        var path: String
        var proof: String?
        var authorization: String?
        var nonceClaim: String?
        var bodyBytes: Int
        var bodySHA256: String
        var status: Int
    }

    let mode = Mutex<Mode>(.challengeUntilCurrent)
    let attempts = Mutex<[Attempt]>([])
    private let issued = Mutex<(count: Int, latest: String?)>((0, nil))

    /// The latest nonce handed out.
    var latestNonce: String? { issued.withLock { $0.latest } }

    /// Decides the answer to one complete request and records it.
    /// - Parameters:
    ///   - head: the request head.
    ///   - body: what arrived.
    /// - Returns: the response.
    func respond(to head: HTTPRequestHead, body: ServerState.ReceivedBody) -> HTTPResponse {
        let proof = head.headers["DPoP"]
        let nonceClaim = proof.flatMap(Self.nonceClaim)
        let tokenEndpoint = head.pathSegments.last == "token"
        let response: HTTPResponse
        switch mode.withLock({ $0 }) {
        case .challengeUntilCurrent:
            let latest = latestNonce
            if let latest, nonceClaim == latest {
                response = .json(tokenEndpoint ? 201 : 200, Array(#"{"ok":true}"#.utf8))
            } else {
                response = challenge(tokenEndpoint: tokenEndpoint, nonce: issueNonce())
            }
        case .alwaysChallenge:
            response = challenge(tokenEndpoint: tokenEndpoint, nonce: issueNonce())
        case .challengeWithSentNonce:
            response = challenge(tokenEndpoint: tokenEndpoint, nonce: nonceClaim ?? issueNonce())
        case .rotateOnSuccess:
            var ok = HTTPResponse.json(200, Array(#"{"ok":true}"#.utf8))
            ok.headers.set("DPoP-Nonce", issueNonce())
            response = ok
        }
        attempts.withLock {
            $0.append(
                Attempt(
                    method: head.method.rawValue, path: head.path, proof: proof,
                    authorization: head.headers["Authorization"], nonceClaim: nonceClaim, bodyBytes: body.bytes,
                    bodySHA256: body.sha256, status: response.status.rawValue))
        }
        return response
    }

    private func issueNonce() -> String {
        issued.withLock { issued in
            issued.count += 1
            issued.latest = "nonce-\(issued.count)"
            return issued.latest!
        }
    }

    private func challenge(tokenEndpoint: Bool, nonce: String) -> HTTPResponse {
        if tokenEndpoint {
            return HTTPResponse(
                status: .badRequest, headers: ["Content-Type": "application/json", "DPoP-Nonce": nonce],
                body: .bytes(Array(#"{"error":"use_dpop_nonce","error_description":"send a nonce"}"#.utf8)))
        }
        return HTTPResponse(
            status: .unauthorized,
            headers: [
                "WWW-Authenticate": #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce""#,
                "DPoP-Nonce": nonce,
            ])
    }

    /// The `nonce` claim of a proof's payload, if any.
    static func nonceClaim(_ proof: String) -> String? {
        claims(proof)?["nonce"] as? String
    }

    /// A proof's payload claims (the middle part of the compact JWS).
    static func claims(_ proof: String) -> [String: Any]? {
        let parts = proof.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
