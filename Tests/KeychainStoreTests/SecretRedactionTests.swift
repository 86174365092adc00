import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("file keychain: secrets never shown")
struct SecretRedactionTests {
    private static let secretText = "canary-4f1d9c-refresh-token-value"
    private let secret = SecretValue(utf8: secretText)
    private let key = SecretItemKey(accessGroup: "group", service: "session.child", account: "alex")

    /// Every rendering of an error a log line or a test report might use.
    private func renderings(of error: any Error) -> [String] {
        var dumped = ""
        dump(error, to: &dumped)
        return [
            "\(error)", String(describing: error), String(reflecting: error), error.localizedDescription, dumped,
        ]
    }

    /// The secret in every form that would give it away: plain, base64, hex.
    private var forbidden: [String] {
        let bytes = Data(Self.secretText.utf8)
        return [
            Self.secretText, bytes.base64EncodedString(), bytes.map { String(format: "%02x", $0) }.joined(),
            String(Self.secretText.prefix(12)),
        ]
    }

    private func expectClean(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in renderings(of: error) {
            for needle in forbidden {
                #expect(!text.contains(needle), "error rendering shows the secret", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("no error a store throws around a secret shows it")
    func errorsAreClean() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        var errors: [any Error] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch { errors.append(error) }
        }

        try store.write(secret, for: key)
        let item = base + "/group/session.child~alex~.item"
        // Corrupt in ways that leave the secret (and its base64) in the file.
        let original = try String(contentsOfFile: item, encoding: .utf8)
        for damaged in [
            String(original.dropLast(5)), original.replacingOccurrences(of: "\"version\":1", with: "\"version\":9"),
            original.replacingOccurrences(of: "session.child", with: "other"),
        ] {
            try damaged.write(toFile: item, atomically: false, encoding: .utf8)
            chmod(item, 0o600)
            collect { _ = try store.read(key) }
        }
        collect {
            try store.write(SecretValue(utf8: String(repeating: Self.secretText, count: 3000)), for: key)
        }
        chmod(item, 0o644)
        collect { _ = try store.read(key) }
        collect { try store.write(secret, for: key) }
        chmod(item, 0o600)
        chmod(base, 0o755)
        collect { _ = try store.read(key) }
        chmod(base, 0o700)
        collect { try store.write(secret, for: SecretItemKey(accessGroup: "group", service: "bad\u{7}name")) }
        #expect(errors.count == 8)
        for error in errors { expectClean(error) }
    }

    @Test("helper processes print nothing secret, even when they fail")
    func helperOutputIsClean() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let outcome = try HelperProcess(["keychain-hammer", base, "1", "5"]).finish()
        #expect(outcome.status == 0)
        // The hammer values themselves never appear in output.
        #expect(!outcome.stdout.contains("w1-i") && !outcome.stderr.contains("w1-i"))
        // Make the helper fail on an insecure item: its error names the path only.
        chmod(base + "/hammer.group/hammer.item~default~.item", 0o644)
        let failed = try HelperProcess(["keychain-hammer", base, "1", "1"]).finish()
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("mode 644"))
        #expect(!failed.stderr.contains("w1-i"))
    }
}
