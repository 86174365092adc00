import Foundation
import ShareKitAppSupport
import ShareKitCore
import ShareKitInboxInterface
import ShareKitIntakeInterface
import ShareKitMessagesInterface

/// Photos of a share written before the server's types were known (no
/// `share login` or daemon had asked yet): once they are known, a photo the
/// server does not take but would take as JPEG is converted, as intake would
/// have done. The JPEG is made beside the copy in the entry, the manifest
/// then names it, and only then is the copy removed, so a crash at any point
/// leaves an entry whose manifest names files that exist.
struct PhotoFitting: Sendable {
    let context: CLIContext
    let request: SendRequest
    let report: SendReport

    /// Converts what needs converting and updates the entry.
    /// - Returns: the entry as it is now (the same when nothing was
    ///   converted), or why the share cannot go on (a photo that cannot be
    ///   converted, exit 4; reading, writing or time, exit 1): the caller
    ///   removes the entry.
    /// - Parameter writes: the entry's writes, which Ctrl-C may end (the
    ///   manifest is written through it).
    func convert(_ entry: InboxEntry, limits: InstanceLimits?, lock: any InboxEntryLock, writes: EntryWrites) async
        -> Result<InboxEntry, ProgramError>
    {
        guard let limits, let accepted = limits.acceptedContentTypes else { return .success(entry) }
        let policy = IntakePolicy(
            acceptedContentTypes: accepted, fileMaxUploadBytes: limits.fileMaxUploadBytes,
            loadTimeout: request.loadTimeout, keepImageMetadata: request.keepMetadata)
        var manifest = entry.manifest
        var replaced: [String] = []
        var made: [String] = []
        for (index, attachment) in entry.manifest.attachments.enumerated() {
            let item = IntakeItem(
                kind: .image, origin: attachment.fileName, storedName: attachment.file, fileName: attachment.fileName,
                contentType: attachment.contentType, detectedContentType: attachment.contentType, size: attachment.size)
            do {
                guard
                    let jpeg = try await context.intake.convertToJPEG(
                        item, index: index, in: entry.directory, policy: policy),
                    let stored = jpeg.storedName, let name = jpeg.fileName, let type = jpeg.contentType
                else { continue }
                made.append(stored)
                replaced.append(attachment.file)
                manifest.attachments[index] = InboxAttachment(
                    file: stored, fileName: name, contentType: type, size: jpeg.size)
                if let converted = ShareStage.conversion(of: jpeg) { report.stage(entry.id, converted) }
            } catch {
                remove(made, from: entry)
                switch error {
                case .notConvertible, .tooLarge:
                    return .failure(ProgramError(.rejected, error.localizedText, code: SendFlow.code(of: error)))
                default: return .failure(ProgramError(error.localizedText))
                }
            }
        }
        guard !replaced.isEmpty else { return .success(entry) }
        do {
            // After Ctrl-C nothing more is written: the process is ending, the entry stays as it was.
            guard
                let updated = try writes.write({ (current) throws(InboxError) in
                    try context.inbox.update(current, manifest: manifest, lock: lock)
                })
            else { return .success(entry) }
            remove(replaced, from: entry)
            return .success(updated)
        } catch {
            remove(made, from: entry)
            return .failure(ProgramError(LocalizedText(describing: error)))
        }
    }

    private func remove(_ files: [String], from entry: InboxEntry) {
        for file in files { try? FileManager.default.removeItem(atPath: entry.directory + "/" + file) }
    }
}
