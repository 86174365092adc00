import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import Testing

@Suite("shared state values")
struct FileSharedStateTests {
    /// A fresh container in a temporary directory.
    private func makeContainer() throws -> (TemporaryDirectory, SharedContainerDirectory) {
        let directory = try TemporaryDirectory(prefix: "sharekit-state")
        return (directory, try SharedContainerDirectory(directory: directory.file("container")))
    }

    @Test("values round trip, including text JSON must escape; nil removes")
    func roundTrip() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        let state = container.state
        #expect(try state.value(for: .previewMode) == nil)
        let tricky = "line one\nline \"two\" \\ tab\t ünïcødé 🚀 /slash"
        try state.set(tricky, for: .recentTargets)
        try state.set("", for: .previewMode)
        #expect(try state.value(for: .recentTargets) == tricky)
        #expect(try state.value(for: .previewMode) == "")
        try state.set("names", for: .previewMode)
        #expect(try state.value(for: .previewMode) == "names")
        try state.set(nil, for: .previewMode)
        #expect(try state.value(for: .previewMode) == nil)
        // Another store over the same directory (another process, in effect) sees the same.
        #expect(try FileSharedState(directory: container.rootPath).value(for: .recentTargets) == tricky)
    }

    @Test("only allow-listed keys exist; per-origin nonce keys work")
    func allowList() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        for name in ["message.text", "session.access_token", "session.refresh_token", "dpop.nonce."] {
            #expect(throws: SharedStateError.keyNotAllowed(name)) { try SharedStateKey(name) }
        }
        let nonce = SharedStateKey.dpopNonce(origin: "https://chat.example.com")
        try container.state.set("n-123", for: nonce)
        #expect(try container.state.value(for: try SharedStateKey(nonce.name)) == "n-123")
        #expect(try container.state.snapshot().keys.allSatisfy { !$0.contains("chat.example.com") })
    }

    /// Writes `values` as the state file an earlier version left.
    private func writeEarlierState(_ values: [String: String], in container: SharedContainerDirectory) throws {
        let path = container.rootPath + "/state.json"
        let data = try JSONSerialization.data(withJSONObject: ["version": 1, "values": values], options: .sortedKeys)
        try data.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    @Test("retired keys of an earlier version are handed over once and the file is rewritten without them")
    func retiredKeysMoveOut() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        try writeEarlierState(
            [
                "server.url": "https://chat.example.com", "account.username": "alex",
                "dpop.nonce.https://chat.example.com": "n-1", "notify.preview_mode": "names", "future.key": "kept",
            ], in: container)
        var handed: [[String: String]] = []
        #expect(try container.state.takeRetiredValues { handed.append($0) })
        #expect(
            handed == [
                [
                    "server.url": "https://chat.example.com", "account.username": "alex",
                    "dpop.nonce.https://chat.example.com": "n-1",
                ]
            ])
        #expect(try container.state.snapshot() == ["notify.preview_mode": "names", "future.key": "kept"])
        let text = try String(contentsOfFile: container.rootPath + "/state.json", encoding: .utf8)
        #expect(!text.contains("alex") && !text.contains("chat.example.com"))
        #expect(try mode(of: container.rootPath + "/state.json") == 0o600)
        // Once: nothing is left to hand over.
        #expect(try !container.state.takeRetiredValues { handed.append($0) })
        #expect(handed.count == 1)
    }

    @Test("a move that fails keeps the retired values for the next try; a state without them is not rewritten")
    func retiredKeysStayOnFailure() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        try writeEarlierState(["account.username": "alex", "server.url": "https://chat.example.com"], in: container)
        struct KeychainDown: Error {}
        #expect(throws: KeychainDown.self) { try container.state.takeRetiredValues { _ in throw KeychainDown() } }
        #expect(try container.state.snapshot()["account.username"] == "alex")

        try writeEarlierState(["notify.preview_mode": "full"], in: container)
        let path = container.rootPath + "/state.json"
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        var called = false
        #expect(try !container.state.takeRetiredValues { _ in called = true })
        #expect(!called)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == before)
    }

    @Test("a corrupt state is left for the next ordinary operation to move aside and report")
    func retiredKeysLeaveCorruptState() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        let path = container.rootPath + "/state.json"
        try "{not json".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try !container.state.takeRetiredValues { _ in })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{not json")
        #expect {
            try container.state.snapshot()
        } throws: { error in
            guard case SharedStateError.corruptMovedAside = error else { return false }
            return true
        }
    }

    @Test("snapshot holds every key and value")
    func snapshot() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        #expect(try container.state.snapshot() == [:])
        try container.state.set("full", for: .previewMode)
        try container.state.increment(.displayCount, by: 3)
        try container.state.set("1048576", for: .fileMaxUploadBytes)
        #expect(
            try container.state.snapshot() == [
                "notify.preview_mode": "full", "counters.push_display.count": "3", "file_max_upload_bytes": "1048576",
            ])
    }

    @Test("a value over 64 KiB is refused and nothing is written")
    func valueCap() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        let limit = FileSharedState.maximumValueBytes
        #expect(limit == 64 * 1024)
        try container.state.set(String(repeating: "a", count: limit), for: .recentTargets)
        #expect(throws: SharedStateError.valueTooLarge(key: "targets.recent", bytes: limit + 1, limit: limit)) {
            try container.state.set(String(repeating: "b", count: limit + 1), for: .recentTargets)
        }
        #expect(try container.state.value(for: .recentTargets) == String(repeating: "a", count: limit))
    }

    @Test("update is one step; a throwing transform writes nothing; counters must be integers")
    func updates() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        let state = container.state
        #expect(try state.increment(.placeholderCount) == 1)
        #expect(try state.increment(.placeholderCount, by: 41) == 42)
        #expect(try state.update(.previewMode) { $0 ?? "full" } == "full")
        struct Refused: Error {}
        #expect(throws: Refused.self) { try state.update(.previewMode) { _ in throw Refused() } }
        #expect(try state.value(for: .previewMode) == "full")
        try state.set("many", for: .displayCount)
        #expect(throws: SharedStateError.notAnInteger(key: "counters.push_display.count")) {
            try state.increment(.displayCount)
        }
        #expect(throws: SharedStateError.notAnInteger(key: "counters.push_display.count")) {
            try state.integer(for: .displayCount)
        }
    }

    @Test("the file is versioned JSON, 0600, with no temporary files left; unknown keys are kept")
    func fileFormat() throws {
        let (directory, container) = try makeContainer()
        defer { directory.remove() }
        let path = container.rootPath + "/state.json"
        // A key a newer program wrote, unknown to this one, survives our updates.
        try #"{"values":{"future.key":"kept"},"version":1}"#.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try container.state.set("none", for: .previewMode)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == #"{"values":{"future.key":"kept","notify.preview_mode":"none"},"version":1}"# + "\n")
        #expect(try mode(of: path) == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: container.rootPath).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }

    @Test("the default directory follows SHAREKIT_CONTAINER_DIR, then XDG_DATA_HOME, then HOME")
    func defaultDirectory() {
        #expect(
            SharedContainerDirectory.defaultDirectory(environment: [
                "SHAREKIT_CONTAINER_DIR": "/srv/c", "XDG_DATA_HOME": "/x", "HOME": "/h",
            ]) == "/srv/c")
        #expect(
            SharedContainerDirectory.defaultDirectory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"])
                == "/x/sharekit/container")
        // A relative XDG_DATA_HOME is invalid by the XDG specification and ignored.
        #expect(
            SharedContainerDirectory.defaultDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share/sharekit/container")
    }
}

/// The permission bits of a path (not following a final symbolic link).
func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
}
