import Foundation
import ShareKitCore
import ShareKitCoreTesting
import ShareKitHTTPInterfaceTesting
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitSystemTesting

/// Writes share inbox entries the way `share send` does when it cannot
/// deliver: a locked draft, the files, the manifest, one rename.
struct InboxEntries {
    let inbox: FileShareInbox
    let origin: String

    /// One file of an entry: its name and content.
    struct File {
        let name: String
        let bytes: [UInt8]
        var completedUploadID: String?

        init(_ name: String, size: Int, seed: UInt8 = 1, completedUploadID: String? = nil) {
            self.name = name
            bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
            self.completedUploadID = completedUploadID
        }
    }

    /// Adds an entry and gives its lock up.
    @discardableResult
    func add(
        _ text: String, files: [File] = [], id: UUIDv7 = UUIDv7(), attempts: Int = 1, lastError: String? = nil,
        target: ShareTarget = OutboxFixture.thread
    ) throws -> InboxManifest {
        let draft = try inbox.makeDraft(id: id.description)
        defer { draft.release() }
        var attachments: [InboxAttachment] = []
        for (index, file) in files.enumerated() {
            let stored = "\(index + 1)-\(file.name)"
            try Data(file.bytes).write(to: URL(fileURLWithPath: draft.directory + "/" + stored))
            attachments.append(
                InboxAttachment(
                    file: stored, fileName: file.name, contentType: "application/octet-stream",
                    size: Int64(file.bytes.count), completedUploadID: file.completedUploadID))
        }
        let manifest = InboxManifest(
            clientMsgID: id.description, serverOrigin: origin, target: target, comment: text,
            createdAt: "2026-12-01T03:00:00Z", attachments: attachments, attempts: attempts, lastError: lastError)
        _ = try inbox.commit(draft, manifest: manifest)
        return manifest
    }

    /// The entry folders in the inbox (not the hidden staging and quarantine folders).
    func folders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: inbox.directory).filter { !$0.hasPrefix(".") }.sorted()
    }
}
