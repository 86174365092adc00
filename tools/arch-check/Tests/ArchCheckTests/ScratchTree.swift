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
            do {
                try Self.copy(TestPaths.fixture(fixture), to: base)
            } catch {
                try? FileManager.default.removeItem(atPath: base)
                throw error
            }
        } else {
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        }
        root = base
    }

    /// Copies a tree, except the manifest cache: it only holds dumps keyed
    /// by the fixture's path, and other tests' runs change it meanwhile.
    private static func copy(_ source: String, to destination: String) throws {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: destination, withIntermediateDirectories: true)
        for name in try fileManager.contentsOfDirectory(atPath: source) where name != "arch-check-cache" {
            let from = source + "/" + name
            let attributes = try fileManager.attributesOfItem(atPath: from)
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                try copy(from, to: destination + "/" + name)
            } else {
                try fileManager.copyItem(atPath: from, toPath: destination + "/" + name)
            }
        }
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
