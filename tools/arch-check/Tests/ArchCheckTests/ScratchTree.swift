import Foundation

/// A writable copy of a fixture tree (or an empty folder) in the system's
/// temporary folder, for tests that change the tree or write a file beside
/// it; ``remove()`` deletes it.
struct ScratchTree {
    /// The copy's root.
    let root: String

    /// Copies `fixture` (by name under `Tests/Fixtures`), or makes an empty
    /// folder when `fixture` is nil.
    init(copying fixture: String? = nil) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("arch-check-tree-\(UUID())").path
        if let fixture {
            try FileManager.default.copyItem(atPath: TestPaths.fixture(fixture), toPath: base)
            // A copied cache would only hold dumps keyed by the fixture's path.
            try? FileManager.default.removeItem(atPath: base + "/.build/arch-check-cache")
        } else {
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        }
        root = base
    }

    /// Writes `text` to `path` (relative to the root), creating folders.
    func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Deletes the copy.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
