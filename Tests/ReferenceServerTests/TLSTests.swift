import Foundation
import ShareKitDPoP
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// HTTPS with a certificate authority made for this run, so DPoP's `htu` is
/// exercised on an `https://` origin (default port handling included).
@Suite("reference server over TLS")
struct TLSTests {
    @Test(
        "serves https with --tls-cert/--tls-key; a proof for the https origin verifies",
        arguments: ServerEngine.allCases)
    func https(engine: ServerEngine) async throws {
        let directory = try TemporaryDirectory(prefix: "share-server-tls")
        let key = directory.file("key.pem")
        let cert = directory.file("cert.pem")
        let made = try runProcess(
            "/usr/bin/env",
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days",
                "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
            ])
        try #require(made.status == 0, "openssl could not make a certificate: \(made.stderr)")
        let server = try await ServerProcess.start(
            engine,
            extraArguments: ["--tls-cert", cert, "--tls-key", key], directory: directory)
        defer { server.stop() }
        #expect(server.origin.hasPrefix("https://127.0.0.1:"))

        let health = try runProcess(
            "/usr/bin/env", ["curl", "-sS", "--cacert", cert, server.origin + "/api/v1/health"])
        #expect(health.stdout == "{\"status\":\"ok\"}")
        let untrusted = try runProcess("/usr/bin/env", ["curl", "-sS", server.origin + "/api/v1/health"])
        #expect(untrusted.status != 0, "curl must refuse a certificate it does not trust")

        let client = try TestClient(origin: server.origin)
        let proof = try client.signer.makeProof(
            method: "POST", url: server.origin + "/api/v1/auth/login", accessToken: nil, nonce: nil)
        let login = try runProcess(
            "/usr/bin/env",
            [
                "curl", "-sS", "--cacert", cert, "-H", "DPoP: \(proof)", "-H", "Content-Type: application/json", "-d",
                "{\"username\":\"alex\",\"password\":\"alex-demo-pass\"}", "-w", "\n%{http_code}",
                server.origin + "/api/v1/auth/login",
            ])
        #expect(login.stdout.hasSuffix("\n201"), "\(login.stdout)")

        let wrongScheme = try client.signer.makeProof(
            method: "POST", url: server.origin.replacingOccurrences(of: "https", with: "http") + "/api/v1/auth/login",
            accessToken: nil, nonce: nil)
        let refused = try runProcess(
            "/usr/bin/env",
            [
                "curl", "-sS", "--cacert", cert, "-H", "DPoP: \(wrongScheme)", "-H", "Content-Type: application/json",
                "-d", "{\"username\":\"alex\",\"password\":\"alex-demo-pass\"}", "-w", "\n%{http_code}",
                server.origin + "/api/v1/auth/login",
            ])
        #expect(refused.stdout.hasSuffix("\n400"), "a proof for http:// must not pass on https://: \(refused.stdout)")
    }
}
