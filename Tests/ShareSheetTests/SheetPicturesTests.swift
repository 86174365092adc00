import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The pictures of docs/sheet.md are the real sheet as it is now:
/// `tools/sheet-screenshots` makes them again from the built programs
/// (under an X server of its own) and each must equal the committed one.
@Suite("share-sheet's pictures in docs/sheet.md")
struct SheetPicturesTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Pixels two runs of the script may differ in and still be the same picture.
    /// Twenty runs on one machine differed in none (the rendering is fixed:
    /// settings, fonts, data, the pointer); there is no tolerance, so a
    /// changed word, colour or margin anywhere fails.
    static let tolerance = 0

    @Test("tools/sheet-screenshots makes the committed pictures again, pixel for pixel")
    func picturesAreCurrent() throws {
        let made = try TemporaryDirectory(prefix: "sheet-pictures")
        defer { made.remove() }
        let run = try runProcess(
            Self.root + "/tools/sheet-screenshots", [made.path], environment: ["BUILT_DIR": BuiltProducts.directory])
        try #require(run.status == 0, "tools/sheet-screenshots failed: \(run.stderr)")
        let committedDirectory = Self.root + "/docs/sheet"
        let committed = try Self.pictures(in: committedDirectory)
        #expect(try Self.pictures(in: made.path) == committed, "the script makes other pictures than docs/sheet holds")
        var stale: [String] = []
        for name in committed {
            // ImageMagick's count of pixels that differ ("AE"), on standard error; 2 is an error (other sizes).
            let compared = try runProcess(
                "/usr/bin/compare",
                ["-metric", "AE", committedDirectory + "/" + name, made.file(name), "null:"])
            let differing = Int(compared.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
            if compared.status == 2 || differing.map({ $0 > Self.tolerance }) ?? true {
                stale.append("\(name) (\(differing.map { "\($0) pixels differ" } ?? compared.stderr))")
            }
        }
        #expect(
            stale.isEmpty,
            """
            stale pictures in docs/sheet: \(stale.joined(separator: ", ")); make them again with \
            `swift build --product share-sheet --product share --product share-server && tools/sheet-screenshots`
            """)
    }

    /// The PNG files of a directory, sorted.
    static func pictures(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".png") }.sorted()
    }
}
