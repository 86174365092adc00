import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import Testing

@Suite("corrupt state file")
struct CorruptStateTests {
    /// A container in a fresh directory whose state.json holds `content` (0600).
    private func makeContainer(stateFile content: Data) throws
        -> (directory: TemporaryDirectory, container: SharedContainerDirectory, path: String)
    {
        let directory = try TemporaryDirectory(prefix: "sharekit-corrupt")
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        let path = container.rootPath + "/state.json"
        _ = FileManager.default.createFile(atPath: path, contents: content, attributes: [.posixPermissions: 0o600])
        return (directory, container, path)
    }

    @Test(
        "a corrupt state file is moved aside, reported once, and the state starts empty",
        arguments: [
            "{ this is not json", "", #"{"version":1,"values":{"k":42}}"#, #"["version",1]"#,
            // A member named twice: two readers could each take another value.
            #"{"values":{"k":"a","k":"b"},"version":1}"#, #"{"values":{},"version":1,"version":1}"#,
            #"{"values":{"k":"a"}}"#, #"{"values":"k","version":1}"#, #"{"values":{},"version":"1"}"#,
            #"{"values":{},"version":1} trailing"#,
        ])
    func movedAside(content: String) throws {
        let (directory, container, path) = try makeContainer(stateFile: Data(content.utf8))
        defer { directory.remove() }

        var reported: SharedStateError?
        do {
            _ = try container.state.value(for: .previewMode)
        } catch let error as SharedStateError {
            reported = error
        }
        guard case .corruptMovedAside(let reportedPath, let movedTo, _) = reported else {
            Issue.record("expected corruptMovedAside, got \(String(describing: reported))")
            return
        }
        #expect(reportedPath == path)
        #expect(movedTo.hasPrefix(path + ".corrupt-"))
        // Kept byte for byte for inspection, never dropped.
        #expect(FileManager.default.contents(atPath: movedTo) == Data(content.utf8))
        #expect(String(describing: reported!).contains("moved aside to \(movedTo)"))

        // Reported once: afterwards the state is empty and usable.
        #expect(try container.state.value(for: .previewMode) == nil)
        try container.state.set("full", for: .previewMode)
        #expect(try container.state.snapshot() == ["notify.preview_mode": "full"])
    }

    @Test("a writer that meets a corrupt file moves it aside too, and its write is not applied")
    func writerReports() throws {
        let (directory, container, _) = try makeContainer(stateFile: Data("garbage".utf8))
        defer { directory.remove() }
        #expect {
            try container.state.increment(.displayCount)
        } throws: { error in
            guard case SharedStateError.corruptMovedAside = error else { return false }
            return true
        }
        #expect(try container.state.integer(for: .displayCount) == nil)
        let asides = try FileManager.default.contentsOfDirectory(atPath: container.rootPath).filter {
            $0.hasPrefix("state.json.corrupt-")
        }
        #expect(asides.count == 1)
    }

    @Test("a state file another JSON writer made (spaces, escapes, version 1.0) is read as it is")
    func otherWriters() throws {
        let content = #"""
            {
              "version" : 1.0,
              "values" : { "notify.preview_mode" : "n\u00e4mes \ud83d\ude80 \"q\" \/ \n" }
            }

            """#
        let (directory, container, _) = try makeContainer(stateFile: Data(content.utf8))
        defer { directory.remove() }
        #expect(try container.state.value(for: .previewMode) == "nämes 🚀 \"q\" / \n")
    }

    @Test("a state file of a newer version is refused and left untouched")
    func newerVersion() throws {
        let content = Data(#"{"values":{},"version":2}"#.utf8)
        let (directory, container, path) = try makeContainer(stateFile: content)
        defer { directory.remove() }
        #expect {
            try container.state.snapshot()
        } throws: { error in
            guard case SharedStateError.corrupt(let reportedPath, let reason) = error else { return false }
            return reportedPath == path && reason.contains("version 2")
        }
        #expect(FileManager.default.contents(atPath: path) == content)
    }
}
