import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import ShareKitTestSupport

/// A self-signed P-256 certificate for 127.0.0.1 made for this run with
/// `openssl req -x509`: it is its own CA.
struct TLSFiles {
    let directory: TemporaryDirectory
    var certificatePath: String { directory.file("cert.pem") }
    var keyPath: String { directory.file("key.pem") }

    init() throws {
        directory = try TemporaryDirectory(prefix: "http-transport-tls")
        let made = try runProcess(
            "/usr/bin/env",
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1", "-keyout",
                directory.file("key.pem"), "-out", directory.file("cert.pem"),
            ])
        guard made.status == 0 else { throw TestFileError("openssl could not make a certificate: \(made.stderr)") }
    }

    /// The credentials for MicroHTTPServer.
    func serverTLS() throws -> HTTPServerTLS {
        HTTPServerTLS(
            certificatePEM: try String(contentsOfFile: certificatePath, encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: keyPath, encoding: .utf8))
    }
}
