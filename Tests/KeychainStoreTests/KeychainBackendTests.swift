import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("keychain backend choice")
struct KeychainBackendTests {
    @Test("backend names parse; unknown names are refused with the accepted values")
    func names() throws {
        #expect(try KeychainBackend(name: "file") == .file())
        #expect(try KeychainBackend(name: "secret-service") == .secretService)
        #expect(KeychainBackend.secretService.name == "secret-service")
        #expect(KeychainBackend.file(directory: "/x").name == "file")
        #expect {
            try KeychainBackend(name: "keyring")
        } throws: { error in
            "\(error)".contains("'file' or 'secret-service'")
        }
    }

    @Test("SHAREKIT_KEYCHAIN chooses the backend; unset or empty means the file store")
    func fromEnvironment() throws {
        #expect(try KeychainBackend.fromEnvironment([:]) == .file())
        #expect(try KeychainBackend.fromEnvironment(["SHAREKIT_KEYCHAIN": ""]) == .file())
        #expect(try KeychainBackend.fromEnvironment(["SHAREKIT_KEYCHAIN": "file"]) == .file())
        #expect(try KeychainBackend.fromEnvironment(["SHAREKIT_KEYCHAIN": "secret-service"]) == .secretService)
        #expect(throws: KeychainError.self) { try KeychainBackend.fromEnvironment(["SHAREKIT_KEYCHAIN": "File"]) }
    }

    @Test("the file store's directory follows the parameter, SHAREKIT_KEYCHAIN_DIR, XDG_DATA_HOME, HOME")
    func fileDirectory() throws {
        let environment = ["SHAREKIT_KEYCHAIN_DIR": "/srv/k", "XDG_DATA_HOME": "/x", "HOME": "/h"]
        #expect(FileKeychain(directory: "/p", environment: environment).directory == "/p")
        #expect(FileKeychain(environment: environment).directory == "/srv/k")
        #expect(FileKeychain(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).directory == "/x/sharekit/keychain")
        #expect(
            FileKeychain(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).directory
                == "/h/.local/share/sharekit/keychain")
        #expect(FileKeychain(environment: ["HOME": "/h"]).directory == "/h/.local/share/sharekit/keychain")
    }

    @Test("the factory makes a file store from configuration")
    func factory() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let store = try KeychainStoreFactory.makeStore(environment: ["SHAREKIT_KEYCHAIN_DIR": directory.file("k")])
        #expect((store as? FileKeychain)?.directory == directory.file("k"))
        let explicit = try KeychainStoreFactory.makeStore(
            backend: .file(directory: directory.file("e")), environment: [:])
        #expect((explicit as? FileKeychain)?.directory == directory.file("e"))
        let key = SecretItemKey(accessGroup: "g", service: "s")
        try store.write(SecretValue(utf8: "v"), for: key)
        #expect(try FileKeychain(directory: directory.file("k")).read(key) == SecretValue(utf8: "v"))
    }

    @Test("a program configured with SHAREKIT_KEYCHAIN gets that backend")
    func programConfiguration() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let file = try HelperProcess(
            ["keychain-backend"],
            environment: [
                "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": directory.file("k"),
            ]
        ).finish()
        #expect(file.stdout == "backend FileKeychain \(directory.file("k"))\n")
        let unknown = try HelperProcess(["keychain-backend"], environment: ["SHAREKIT_KEYCHAIN": "gnome"]).finish()
        #expect(unknown.status == 3)
        #expect(unknown.stdout.contains("unknown keychain backend 'gnome'"))
    }

    @Test("the Secret Service backend without a reachable session bus is unavailable, not a crash or a hang")
    func secretServiceUnavailable() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let outcome = try HelperProcess(
            ["keychain-backend"],
            environment: [
                "SHAREKIT_KEYCHAIN": "secret-service",
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + directory.file("no-bus"),
            ]
        ).finish()
        #expect(outcome.status == 3)
        #expect(outcome.stdout.hasPrefix("error keychain backend unavailable: Secret Service:"))
    }
}
