import Foundation
import ShareKitKeychainInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Whether this machine has what a real Secret Service round trip needs,
/// and if not, why.
private let secretServiceSkipReason: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    func has(_ name: String) -> Bool {
        path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
    if !has("dbus-run-session") { return "dbus-run-session not found (Debian package dbus-daemon)" }
    if !has("gnome-keyring-daemon") { return "gnome-keyring-daemon not found (Debian package gnome-keyring)" }
    return nil
}()

@Suite("Secret Service backend")
struct SecretServiceTests {
    @Test("write, read, overwrite, list and delete against a real gnome-keyring-daemon in dbus-run-session")
    func roundTrip() throws {
        if let reason = secretServiceSkipReason {
            print("Secret Service round trip skipped: \(reason)")
            try Test.cancel("skipped: \(reason)")
        }
        let directory = try TemporaryDirectory(prefix: "sharekit-secret-service")
        defer { directory.remove() }
        // A private HOME and XDG directories: the test keyring never touches the person's own.
        for name in ["home", "data", "config", "runtime"] {
            try FileManager.default.createDirectory(
                atPath: directory.file(name), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700]
            )
        }
        // The helper runs `dbus-run-session -- ShareTestHelper secret-service-roundtrip`
        // with a clean signal mask and cleans up the session's processes
        // (see SecretServiceSessionCommand.swift for why the test cannot spawn it directly).
        let result = try runProcess(
            BuiltProducts.path("ShareTestHelper"), ["secret-service-session"],
            environment: [
                "HOME": directory.file("home"), "XDG_DATA_HOME": directory.file("data"),
                "XDG_CONFIG_HOME": directory.file("config"), "XDG_RUNTIME_DIR": directory.file("runtime"),
            ])
        print(result.stdout, terminator: "")
        if result.status == 77 {
            print("Secret Service round trip skipped: \(result.stdout)")
            try Test.cancel("skipped: \(result.stdout)")
        }
        #expect(result.status == 0, "round trip failed: \(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("ok write/read binary value"))
        #expect(result.stdout.contains("ok list (access groups isolated)"))
        #expect(result.stdout.hasSuffix("secret-service round trip passed\n"))
        // The helper's secrets never reach its output.
        #expect(
            !(result.stdout + result.stderr).contains("first-secret")
                && !(result.stdout + result.stderr).contains("second-secret"))
    }
}
