import Foundation
import ShareKitClientAssembly
import ShareKitDelivery
import ShareKitDeliveryInterface
import ShareKitMessagesInterface
import ShareKitOutbox
import ShareKitOutboxInterface
import ShareKitSQLiteStore
import ShareKitSessionsInterface

/// `outbox-drain <origin> <db> <outbox-dir> <lease-seconds>`: one drain pass
/// of the daemon's outbox (SQLite file `<db>`, files under `<outbox-dir>`)
/// through the parent session's Sender (keychain and container from the
/// environment through ``ClientAssembly``), claims older than the lease
/// released first.
///
/// Lines on standard output, flushed, for tests that kill it at a step:
/// `claimed <id>`, `uploaded <id> <index>`, `sent <id> <replayed>`,
/// `retry <id>`, `failed <id> <code>`, and at the end `drained <sent> <retried> <failed>`.
func outboxDrainCommand(_ arguments: [String]) throws {
    let args = HelperArguments(arguments, usage: "outbox-drain <origin> <db> <outbox-dir> <lease-seconds>")
    let origin = try args.string(0)
    let database = try SQLiteDatabase(path: try args.string(1))
    let outbox = try SQLiteOutbox(database: database, directory: try args.string(2))
    let lease = try args.integer(3)
    let connection = try ClientAssembly(environment: ProcessInfo.processInfo.environment).connection(to: origin)
    let sender = connection.sender(
        .parent, limits: MessageLimits(messageMaxAttachments: 10, fileMaxUploadBytes: .max),
        recordsDirectory: try args.string(2) + "/upload-records")
    let drainer = OutboxDrainer(
        outbox: outbox, delivery: DeliveryEngine(), makeSender: { _ in sender }, lease: .seconds(lease),
        observer: { event in
            switch event {
            case .claimed(let id, _): printFlushed("claimed \(id)")
            case .uploaded(let id, let index, _): printFlushed("uploaded \(id) \(index)")
            case .delivered(let id, .sent(let message)): printFlushed("sent \(id) \(message.replayed)")
            case .delivered(let id, .kept): printFlushed("retry \(id)")
            case .delivered(let id, .refused(let refusal)): printFlushed("failed \(id) \(refusal.code)")
            case .delivered(_, .cancelled): break
            }
        })
    let outcome = runBlocking { () async -> Result<DrainReport, OutboxError> in
        do throws(OutboxError) {
            return .success(try await drainer.drainOnce())
        } catch {
            return .failure(error)
        }
    }
    let report = try outcome.get()
    printFlushed("drained \(report.sent) \(report.retried) \(report.failed)")
}
