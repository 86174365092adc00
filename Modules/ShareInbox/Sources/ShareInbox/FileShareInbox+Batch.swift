public import ShareKitInboxInterface
import ShareKitSecureFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Taking many entries at once (the daemon's takeover): each entry is
/// locked, read and checked once, and leaves the inbox by one rename; the
/// folders are deleted afterwards by background threads.
///
/// Deleting is what makes completion expensive: removing a folder frees its
/// blocks, and on a file system mounted with online discard every freed
/// extent waits for the device (a few milliseconds each, two per entry: the
/// folder and its manifest), where a rename takes microseconds. So a batch
/// of completed entries is moved into one removal folder in `.staging`,
/// `removed+<random>`, which this process holds locked while its threads
/// delete the entries in parallel. A scan leaves a locked folder alone; if
/// the process dies first, the kernel drops the lock and the next scan
/// deletes what is left, as it does with any unfinished removal.
extension FileShareInbox {
    /// The prefix of removal folders in `.staging`. The `+` cannot be in an
    /// entry id, so no draft (`<id>.<random>`) is ever taken for one.
    static let removalPrefix = "removed+"

    /// Locks up to `limit` free entries not in `skipping`, in the order of
    /// their ids (a `client_msg_id` is a UUIDv7: oldest first); see
    /// ``ShareKitInboxInterface/ShareInboxStoring/lockFreeEntries(limit:skipping:)``.
    /// One listing of the inbox, and one lock and one read of each entry;
    /// the first call of a pass (nothing skipped) also clears what dead
    /// processes left in `.staging`, as ``scan()`` does.
    /// - Returns: the locked entries, the busy ones, failures and the quarantine.
    /// - Throws: ``InboxError`` only when the inbox folder itself cannot be opened or listed.
    public func lockFreeEntries(limit: Int, skipping: Set<String>) throws(InboxError) -> InboxLockedEntries {
        let folders = try openFolders()
        if skipping.isEmpty { removeAbandonedStaging(folders: folders) }
        let names: [String]
        do {
            names = try folders.inbox.entryNames()
        } catch {
            throw InboxError(error)
        }
        var result = InboxLockedEntries()
        for name in names.sorted() where !name.hasPrefix(".") && !skipping.contains(name) {
            guard result.locked.count < max(1, limit) else { break }
            do throws(InboxError) {
                if let (lock, entry) = try lockFolder(name, wait: false, folders: folders) {
                    result.locked.append(LockedInboxEntry(entry: entry, lock: lock))
                } else if (try? DirectoryHandle.status(of: entryPath(name))) != nil {
                    result.busy.append(name)  // still there: someone holds it
                }
            } catch .quarantined {
                // Listed with the quarantine below.
            } catch {
                result.failed.append((name, error.description))
            }
        }
        result.quarantined = quarantinedEntries(folders: folders)
        return result
    }

    /// Completes locked entries: each leaves the inbox by one rename into a
    /// removal folder of this batch, and the folder is deleted by background
    /// threads (``waitForRemovals()`` waits for them). When no removal folder
    /// can be made, each entry is completed and deleted on its own, as
    /// ``markProcessed(_:lock:)`` does. Each lock is given up.
    /// - Returns: per entry, nil when it left the inbox, else why not (it stays).
    public func markProcessed(_ entries: [LockedInboxEntry]) -> [InboxError?] {
        guard !entries.isEmpty else { return [] }
        let removal: RemovalFolder
        do {
            _ = try openFolders()
            removal = try RemovalFolder(staging: stagingPath)
        } catch {
            return markProcessedOneByOne(entries)
        }
        var moved: Set<String> = []
        let results = entries.map { locked -> InboxError? in
            defer { locked.lock.release() }
            do throws(InboxError) {
                let fileLock = try heldLock(locked.lock, for: locked.entry)
                let id = locked.entry.id
                // The removal folder is new and private to this batch: only a
                // second copy of one id could take a name there.
                guard moved.insert(id).inserted else { return nil }
                guard rename(entryPath(id), removal.path + "/" + id) == 0 else {
                    throw .system("rename", path: entryPath(id), errno: errno)
                }
                // Out of the inbox: nobody reaches it by its name any more
                // (see markProcessed(_:lock:)).
                fileLock.release()
                removal.names.append(id)
                return nil
            } catch {
                return error
            }
        }
        removal.deleteInBackground()
        return results
    }

    /// Waits until every removal folder this process started deleting is gone.
    public func waitForRemovals() {
        Remover.shared.waitUntilIdle()
    }
}

/// A removal folder in `.staging` (`removed+<random>`) holding the entries
/// of one completed batch, locked by this process until ``Remover``'s
/// threads have deleted them and the folder itself.
final class RemovalFolder: @unchecked Sendable {
    /// The folder.
    let path: String
    /// The entry names moved in (filled before ``deleteInBackground()``; read-only afterwards).
    var names: [String] = []
    /// The locked descriptor: the hold ends when it closes, once the folder is gone.
    private let handle: DirectoryHandle

    /// Makes `<staging>/removed+<random>` and locks it. It is made under a
    /// creation name and renamed once locked, as drafts are, so a scan never
    /// takes it for an abandoned folder.
    /// - Throws: ``InboxError`` when it cannot be made.
    init(staging: String) throws(InboxError) {
        let name = FileShareInbox.removalPrefix + EntryName.uniqueSuffix()
        let creating = staging + "/" + name + FileShareInbox.creatingSuffix
        path = staging + "/" + name
        guard mkdir(creating, 0o700) == 0 else { throw .system("mkdir", path: creating, errno: errno) }
        guard let handle = try DirectoryHandle.openFolder(creating) else {
            throw .io(path: creating, reason: "the removal folder vanished as it was made")
        }
        _ = try handle.lock(wait: true)
        guard try DirectoryHandle.move(creating, to: path) else {
            throw .io(path: path, reason: "a removal folder of that name exists already")
        }
        self.handle = handle
    }

    /// Hands the folder to the background threads; an empty one is removed at once.
    func deleteInBackground() {
        if names.isEmpty {
            finish()
        } else {
            Remover.shared.add(self)
        }
    }

    /// Removes the (by now empty) folder; what cannot go now is left for a scan.
    /// The lock goes with the descriptor, when this object does.
    func finish() {
        if rmdir(path) != 0 { try? DirectoryHandle.removeTree(path) }
    }

    /// Deletes one entry folder: its plain files, then the folder; anything
    /// else inside (a folder someone put there) goes the slow way.
    static func removeEntry(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            try? DirectoryHandle.removeTree(folder)
            return
        }
        var complete = true
        if let listing = fdopendir(fd) {
            while let item = readdir(listing) {
                let removed = withUnsafeBytes(of: item.pointee.d_name) { raw -> Bool in
                    let name = raw.bindMemory(to: CChar.self)
                    guard let base = name.baseAddress else { return false }
                    if name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { return true }
                    return unlinkat(fd, base, 0) == 0 || errno == ENOENT
                }
                if !removed { complete = false }
            }
            closedir(listing)  // closes fd
        } else {
            close(fd)
            complete = false
        }
        if !complete || rmdir(folder) != 0 { try? DirectoryHandle.removeTree(folder) }
    }
}

/// The process's background threads that delete removal folders: at most
/// ``maximumThreads`` at once, started when work arrives and ending when
/// none is left, at a lower priority than the process's real work.
///
/// Freeing blocks waits for the device (see the extension above), and
/// such waits overlap well: eight threads delete about eight times as fast
/// as one, while each uses little CPU.
final class Remover: @unchecked Sendable {
    static let shared = Remover()

    /// The most threads at once.
    static let maximumThreads = 8
    /// Entries per thread below which fewer threads are started.
    static let entriesPerThread = 16
    /// The nice value of the threads: deleting garbage must not slow down
    /// the takeover or the sending it makes room for.
    static let niceness: Int32 = 10

    // On the heap: a pthread mutex or condition must not move. Everything
    // below is guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let idle = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Folders not yet gone, with the next name to take and how many are deleted.
    private var queue: [(folder: RemovalFolder, next: Int, done: Int)] = []
    private var running = 0

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(idle, nil)
    }

    /// Queues a folder and starts threads for it, up to the limit.
    func add(_ folder: RemovalFolder) {
        pthread_mutex_lock(mutex)
        queue.append((folder, 0, 0))
        let left = queue.reduce(0) { $0 + $1.folder.names.count - $1.next }
        let wanted = min(Self.maximumThreads, (left + Self.entriesPerThread - 1) / Self.entriesPerThread)
        let starting = max(0, wanted - running)
        running += starting
        pthread_mutex_unlock(mutex)
        var notStarted = 0
        for _ in 0..<starting where !BackgroundThread.start({ self.work(background: true) }) { notStarted += 1 }
        // A thread that could not be made is stood in for by this one.
        for _ in 0..<notStarted { work(background: false) }
    }

    /// Returns once every queued folder is gone.
    func waitUntilIdle() {
        pthread_mutex_lock(mutex)
        while !queue.isEmpty || running > 0 { pthread_cond_wait(idle, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// One thread: deletes entries while there are any, then ends.
    /// - Parameter background: on a thread of its own (which then runs at a lower priority).
    private func work(background: Bool) {
        // Per thread on Linux: only this thread gets the lower priority.
        if background { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness) }
        while let (folder, index) = take() {
            RemovalFolder.removeEntry(folder.path + "/" + folder.names[index])
            if completed(folder) { folder.finish() }
        }
    }

    /// The next entry to delete, or nil (and this thread counted out) when none is left.
    private func take() -> (RemovalFolder, Int)? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let position = queue.firstIndex(where: { $0.next < $0.folder.names.count }) {
            queue[position].next += 1
            return (queue[position].folder, queue[position].next - 1)
        }
        running -= 1
        if running == 0 && queue.isEmpty { pthread_cond_broadcast(idle) }
        return nil
    }

    /// Counts one entry of `folder` deleted; true when it was the folder's
    /// last (the folder leaves the queue and the caller removes it).
    private func completed(_ folder: RemovalFolder) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard let position = queue.firstIndex(where: { $0.folder === folder }) else { return false }
        queue[position].done += 1
        guard queue[position].done == folder.names.count else { return false }
        queue.remove(at: position)
        return true
    }
}

/// A detached POSIX thread with a small stack, for work that blocks in
/// system calls (Swift concurrency's threads must not be held that way).
enum BackgroundThread {
    /// The stack of each thread: the work is a loop of system calls.
    static let stackSize = 256 * 1024

    /// Starts `body` on a new thread.
    /// - Returns: false when no thread could be made.
    static func start(_ body: @escaping () -> Void) -> Bool {
        let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
        defer { attributes.deallocate() }
        pthread_attr_init(attributes)
        defer { pthread_attr_destroy(attributes) }
        pthread_attr_setstacksize(attributes, stackSize)
        pthread_attr_setdetachstate(attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, attributes,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, context)
        if created != 0 {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        return true
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
