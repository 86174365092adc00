import Foundation
import ShareKitCore
import ShareKitInbox
import ShareKitInboxInterface

/// `inbox-write --dir D --id ID --bytes N [--chunk C] [--pause-after K]`: a
/// sender writing one inbox entry the way `share send` does: a locked draft,
/// one attachment `1-data.bin` of N bytes (byte i is `i % 251`) written in
/// chunks of C bytes (default 64 KiB), then the commit.
///
/// Lines on standard output, for tests to wait on (and to kill at):
/// `writing` once the draft is locked and before its first byte; `chunk <k>`
/// after each chunk; `paused` after chunk K with `--pause-after K` (0: before
/// the first chunk), then it waits for a line on standard input; `committing`
/// just before the commit, `committed <directory>` after it. It then holds
/// the entry's lock until a line (or end of file) on standard input, and
/// prints `released`.
func inboxWriteCommand(_ arguments: [String]) throws {
    let usage = "inbox-write --dir D --id ID --bytes N [--chunk C] [--pause-after K]"
    let flags = try InboxCommandFlags(arguments, usage: usage)
    let id = try flags.string("id")
    let total = try flags.integer("bytes")
    let chunkSize = try flags.integer("chunk", default: 64 * 1024)
    let pauseAfter = try flags.integer("pause-after", default: -1)
    let inbox = FileShareInbox(directory: try flags.string("dir"))

    let draft = try inbox.makeDraft(id: id)
    let file = "1-data.bin"
    let path = draft.directory + "/" + file
    guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
        let handle = FileHandle(forWritingAtPath: path)
    else { throw HelperFailure("cannot create \(path)") }
    printFlushed("writing")
    var written = 0
    var chunk = 0
    while true {
        if chunk == pauseAfter {
            printFlushed("paused")
            _ = readLine()
        }
        guard written < total else { break }
        let count = min(chunkSize, total - written)
        try handle.write(contentsOf: Data((written..<(written + count)).map { UInt8($0 % 251) }))
        written += count
        chunk += 1
        printFlushed("chunk \(chunk)")
    }
    try handle.synchronize()
    try handle.close()

    let manifest = InboxManifest(
        clientMsgID: id, serverOrigin: "http://127.0.0.1:1",
        target: ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway"),
        comment: "have a look", createdAt: Date().formatted(Date.ISO8601FormatStyle()),
        attachments: [
            InboxAttachment(
                file: file, fileName: "data.bin", contentType: "application/octet-stream", size: Int64(total))
        ], attempts: 1)
    printFlushed("committing")
    let entry = try inbox.commit(draft, manifest: manifest)
    printFlushed("committed \(entry.directory)")
    _ = readLine()
    draft.release()
    printFlushed("released")
}
