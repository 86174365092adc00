import Foundation
import FuzzSupport
import ShareKitCore
import ShareKitInbox
import ShareKitInboxInterface
import ShareKitOutboxInterface
import ShareKitSQLInterface

@testable import ShareKitOutbox

/// One input, read twice.
///
/// As the bytes of a `manifest.json` (the shared container is writable by
/// every component, so a manifest is hostile input): the decoder must
/// return a manifest or throw; a decoded manifest must have every number in
/// its range (no arithmetic on it can trap: the sums and differences below
/// are done unchecked, so an overflow traps here) and survive encoding and
/// decoding again.
///
/// As an outbox record (a row an older version may have stored): the first
/// 40 bytes are the five integer columns (`attempts`, `next_attempt_at`,
/// `created_at`, `updated_at`, `replayed`), the rest, split at NUL bytes, the
/// text columns `target`, `attachments` and `state`. The reader must return
/// without trapping; a record it finds valid has every number in range, and
/// one it refuses comes back failed, with its numbers clamped and no files.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    manifest(bytes)
    outboxRecord(bytes)
    return 0
}

private func manifest(_ bytes: [UInt8]) {
    guard let manifest = try? InboxManifestCodec.decode(bytes) else { return }
    guard manifest.rangeProblem == nil else { fatalError("a decoded manifest has a number out of range") }
    let total = manifest.attachments.reduce(Int64(0)) { $0 + $1.size }
    let created = RFC3339.unixMilliseconds(manifest.createdAt) ?? 0
    _ = (total, UnixClock.system.milliseconds() - created, manifest.countingAttempt().attempts + 1)
    if let encoded = try? InboxManifestCodec.encode(manifest) {
        guard (try? InboxManifestCodec.decode(encoded)) == manifest else {
            fatalError("a decoded manifest did not survive encode and decode")
        }
    }
}

private let filesRoot = "/outbox/files"
private let id = "0193a6b2-7c1d-7e00-8000-000000000001"

private func outboxRecord(_ bytes: [UInt8]) {
    guard bytes.count >= 40 else { return }
    let integers = (0..<5).map { index in
        bytes[(index * 8)..<(index * 8 + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }.map { Int64(bitPattern: $0) }
    var texts = bytes[40...].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    while texts.count < 3 { texts.append("") }
    // The stored path of an attachment is often right, so the size checks are reached.
    let attachments = texts[1].replacingOccurrences(of: "@", with: filesRoot + "/" + id + "/")
    let columns = SQLColumns(OutboxSchema.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    var values: [String: SQLValue] = [
        "client_msg_id": .text(id), "server_origin": .text("http://127.0.0.1:8080"), "text": .text("t"),
        "title": .null, "last_error": .null, "failure_code": .null, "message_id": .null,
        "attempts": .integer(integers[0]), "next_attempt_at": .integer(integers[1]),
        "created_at": .integer(integers[2]), "updated_at": .integer(integers[3]), "replayed": .integer(integers[4]),
        "target": .text(texts[0]), "attachments": .text(attachments), "state": .text(texts[2]),
    ]
    if integers[4] == 7 { values["attempts"] = .real(Double(integers[0])) }  // a column of the wrong type
    let row = SQLRow(columns: columns, values: columns.names.map { values[$0] ?? .null })
    let read = OutboxSchema.read(row, filesRoot: filesRoot)
    guard let item = read.item else { fatalError("a record with a UUIDv7 id gave no item") }
    guard item.rangeProblem == nil else { fatalError("a record read back has a number out of range") }
    if read.problem != nil {
        guard item.state == .failed, item.attachments.isEmpty else { fatalError("a refused record can be sent") }
    }
    let total = item.attachments.reduce(Int64(0)) { $0 + $1.size }
    _ = (total, item.nextAttemptAt - item.createdAt, item.updatedAt - UnixClock.system.milliseconds())
    _ = item.countingAttempt().attempts + 1
}

@_cdecl("InboxManifestFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
