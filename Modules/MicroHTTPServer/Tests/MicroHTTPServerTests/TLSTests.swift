import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// HTTPS with a certificate made for this run.
@Suite("MicroHTTPServer: TLS")
struct TLSTests {
    @Test("HTTPS with a per-run P-256 certificate, checked by curl against it as the CA")
    func https() throws {
        let directory = try TemporaryDirectory(prefix: "httpd-tls")
        defer { directory.remove() }
        let made = try runProcess(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj",
                "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1", "-keyout",
                directory.file("key.pem"), "-out", directory.file("cert.pem"),
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let tls = HTTPServerTLS(
            certificatePEM: try String(contentsOfFile: directory.file("cert.pem"), encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: directory.file("key.pem"), encoding: .utf8))
        let server = try TestServer { $0.tls = tls }
        defer { server.stop() }

        let url = "https://127.0.0.1:\(server.port)"
        let response = try Curl.request(url + "/scheme", ["--cacert", directory.file("cert.pem")])
        #expect(response.status == 200, "\(response.stderr)")
        #expect(response.text == "https")
        let upload = try Curl.request(
            url + "/items", ["--cacert", directory.file("cert.pem"), "--data-binary", "over tls"])
        #expect(upload.status == 201)
        #expect(upload.text == "over tls")

        // Without the CA the certificate is not trusted; plain HTTP gets no answer.
        let untrusted = try Curl.request(url + "/scheme")
        #expect(untrusted.status == 0)
        let plain = try Curl.request("http://127.0.0.1:\(server.port)/scheme")
        #expect(plain.status != 200)
        #expect(try Curl.request(url + "/hello", ["--cacert", directory.file("cert.pem")]).status == 200)
    }

    @Test("a key that does not load is a start error, not a crash")
    func badKey() throws {
        let directory = try TemporaryDirectory(prefix: "httpd-tls")
        defer { directory.remove() }
        let server = MicroHTTPServer(
            handler: TestRoutes(controls: TestControls(uploadDirectory: directory.path)),
            configuration: HTTPServerConfiguration(
                tls: HTTPServerTLS(certificatePEM: "not a certificate", privateKeyPEM: "not a key")))
        #expect(throws: HTTPServerError.self) { try server.start(host: "127.0.0.1", port: 0) }
    }
}
