import Foundation
import ShareKitInbox
import ShareKitInboxInterface

/// `inbox-lock --dir D --id ID`: takes an inbox entry's lock (waiting for
/// it), prints `locked`, holds it until a line (or end of file) on standard
/// input, then prints `released` after letting it go. Prints `gone` and
/// exits 3 when there is no such entry.
func inboxLockCommand(_ arguments: [String]) throws {
    let flags = try InboxCommandFlags(arguments, usage: "inbox-lock --dir D --id ID")
    let inbox = FileShareInbox(directory: try flags.string("dir"))
    guard let (lock, _) = try inbox.lock(id: try flags.string("id"), wait: true) else {
        printFlushed("gone")
        exit(3)
    }
    printFlushed("locked")
    _ = readLine()
    lock.release()
    printFlushed("released")
}
