import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("container permissions")
struct ContainerPermissionTests {
    private let fileManager = FileManager.default

    @Test("a new container is 0700 with inbox/ and locks/, and the state file is 0600")
    func createsPrivateDirectories() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-perm")
        defer { directory.remove() }
        // Missing parents are made too, 0700.
        let root = directory.file("data/sharekit/container")
        let container = try SharedContainerDirectory(directory: root)
        #expect(container.inboxPath == root + "/inbox")
        #expect(container.locksPath == root + "/locks")
        for path in [
            directory.file("data"), directory.file("data/sharekit"), root, container.inboxPath, container.locksPath,
        ] {
            #expect(try mode(of: path) == 0o700, "\(path)")
        }
        try container.state.set("full", for: .previewMode)
        #expect(try mode(of: root + "/state.json") == 0o600)
        try container.locks.withExclusiveLock(named: "refresh") {}
        #expect(try mode(of: container.locksPath + "/refresh.lock") == 0o600)
    }

    @Test("a container directory others can enter is refused, naming the fix")
    func refusesOpenDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-perm")
        defer { directory.remove() }
        let root = directory.file("container")
        try fileManager.createDirectory(
            atPath: root, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        #expect(throws: SharedStateError.insecurePermissions(path: root, mode: 0o755)) {
            try SharedContainerDirectory(directory: root)
        }
        #expect(String(describing: SharedStateError.insecurePermissions(path: root, mode: 0o755)).contains("chmod 700"))
    }

    @Test("an inbox or locks directory others can read is refused")
    func refusesOpenSubdirectory() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-perm")
        defer { directory.remove() }
        let root = directory.file("container")
        _ = try SharedContainerDirectory(directory: root)
        chmod(root + "/inbox", 0o750)
        #expect(throws: SharedStateError.insecurePermissions(path: root + "/inbox", mode: 0o750)) {
            try SharedContainerDirectory(directory: root)
        }
        chmod(root + "/inbox", 0o700)
        chmod(root + "/locks", 0o701)
        #expect(throws: SharedStateError.insecurePermissions(path: root + "/locks", mode: 0o701)) {
            try SharedContainerDirectory(directory: root)
        }
    }

    @Test("a state file others can read is refused, and so is a symbolic link in its place")
    func refusesStateFile() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-perm")
        defer { directory.remove() }
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        let path = container.rootPath + "/state.json"
        try container.state.set("full", for: .previewMode)
        chmod(path, 0o644)
        #expect(throws: SharedStateError.insecurePermissions(path: path, mode: 0o644)) {
            try container.state.value(for: .previewMode)
        }
        #expect(throws: SharedStateError.insecurePermissions(path: path, mode: 0o644)) {
            try container.state.set("none", for: .previewMode)
        }
        try fileManager.removeItem(atPath: path)
        let elsewhere = directory.file("elsewhere.json")
        try #"{"values":{},"version":1}"#.write(toFile: elsewhere, atomically: false, encoding: .utf8)
        chmod(elsewhere, 0o600)
        try fileManager.createSymbolicLink(atPath: path, withDestinationPath: elsewhere)
        #expect(throws: SharedStateError.notARegularFile(path: path)) { try container.state.snapshot() }
    }

    @Test("a symbolic link as the container directory is refused")
    func refusesSymlinkedContainer() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-perm")
        defer { directory.remove() }
        let real = directory.file("real")
        _ = try SharedContainerDirectory(directory: real)
        let link = directory.file("link")
        try fileManager.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(throws: SharedStateError.notARegularFile(path: link)) { try SharedContainerDirectory(directory: link) }
        #expect(throws: SharedStateError.notARegularFile(path: link)) {
            try FileSharedState(directory: link).snapshot()
        }
    }

    @Test(
        "a container or state file owned by another user is refused",
        .enabled(if: geteuid() == 0, "needs root to chown"))
    func refusesWrongOwner() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-perm")
        defer { directory.remove() }
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        try container.state.set("full", for: .previewMode)
        let path = container.rootPath + "/state.json"
        chown(path, 12345, 12345)
        #expect(throws: SharedStateError.wrongOwner(path: path, owner: 12345, expected: 0)) {
            try container.state.value(for: .previewMode)
        }
        chown(container.locksPath, 12345, 12345)
        #expect(throws: SharedStateError.wrongOwner(path: container.locksPath, owner: 12345, expected: 0)) {
            try SharedContainerDirectory(directory: container.rootPath)
        }
    }
}
