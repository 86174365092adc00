import Foundation
import SharedState
import SharedStateInterface
import SystemTesting
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
        #expect(try container.state.value(for: try SharedStateKey("dpop.nonce.https://chat.example.com")) == "n-123")
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
