import Foundation
import ShareKitCore
public import ShareKitInboxInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileShareInbox {
    /// Lists the inbox, oldest entry first.
    ///
    /// Each folder is locked without waiting: a folder locked by someone
    /// else is listed with `isLocked` when its manifest reads (and left
    /// alone when it does not); an unlocked one is checked completely and
    /// quarantined with a reason when anything is wrong. Files that are not
    /// folders are quarantined too. Unlocked drafts older than
    /// ``abandonedDraftAge`` (a killed writer's) and unfinished removals are
    /// deleted from `.staging`; a locked draft is never touched. Hidden names
    /// are not entries.
    /// - Returns: the entries, everything in quarantine, and the ids of
    ///   entries older than ``maximumAge``.
    /// - Throws: ``InboxError`` only when the inbox folder itself cannot be
    ///   opened or listed.
    public func scan() throws(InboxError) -> InboxScan {
        let folders = try openFolders()
        removeAbandonedStaging(folders: folders)
        let names: [String]
        do {
            names = try folders.inbox.entryNames()
        } catch {
            throw InboxError(error)
        }
        var entries: [InboxEntry] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            if let entry = inspect(name: name, folders: folders) { entries.append(entry) }
        }
        entries.sort { first, second in
            let firstDate = RFC3339.date(first.manifest.createdAt) ?? .distantPast
            let secondDate = RFC3339.date(second.manifest.createdAt) ?? .distantPast
            return firstDate == secondDate ? first.id < second.id : firstDate < secondDate
        }
        let limit = maximumAge.components.seconds
        return InboxScan(
            entries: entries, quarantined: quarantinedEntries(folders: folders),
            stale: entries.filter { $0.ageSeconds > limit }.map(\.id))
    }

    /// One name of the inbox: the entry it is, or nil when it was
    /// quarantined, is unreadable while locked, or went away meanwhile.
    /// Never throws: one bad entry must not stop the scan.
    private func inspect(name: String, folders: Folders) -> InboxEntry? {
        let path = entryPath(name)
        guard let info = try? DirectoryHandle.status(of: path) else { return nil }
        guard DirectoryHandle.isDirectory(info) else {
            _ = try? quarantineStray(name: name, reason: Self.strayReason(info), folders: folders)
            return nil
        }
        guard let handle = try? DirectoryHandle.openFolder(path),
            let locked = try? handle.lock(wait: false)
        else { return nil }
        guard locked else {
            // In use (a sender at work, the daemon taking it over): report it
            // as it reads now, check it when it is free.
            guard EntryName.isValidID(name),
                let manifest = try? EntryValidator.readManifest(name: name, inbox: folders.inbox),
                manifest.clientMsgID == name
            else { return nil }
            return entry(manifest, isLocked: true)
        }
        guard handle.isStill(at: path) else { return nil }
        do {
            let manifest = try EntryValidator.validate(name: name, folder: handle, inbox: folders.inbox)
            return entry(manifest, isLocked: false)
        } catch {
            _ = try? quarantineFolder(name: name, handle: handle, reason: error.description, folders: folders)
            return nil
        }
    }

    /// Deletes what dead processes left in `.staging`: unlocked drafts (a
    /// writer killed before its commit; it was never an entry), drafts under
    /// their creation name only when older than ``abandonedDraftAge`` (their
    /// writer may be between `mkdir` and the lock), and unlocked removals
    /// (`<id>.done.<random>`, a ``markProcessed(_:lock:)`` cut short, and
    /// `removed+<random>`, a batch's, under either name).
    ///
    /// A batch's removal folder under its creation name gets no grace: its
    /// maker holds no entry there yet, and when the folder goes before it is
    /// locked and renamed, the maker completes its entries one by one
    /// instead. Waiting would leave a dead maker's empty folder for a minute.
    /// - Returns: how many folders (or stray files) were deleted.
    @discardableResult
    func removeAbandonedStaging(folders: Folders) -> Int {
        guard let names = try? folders.staging.entryNames() else { return 0 }
        var removed = 0
        let now = now.timeIntervalSince1970
        for name in names {
            let path = stagingPath + "/" + name
            guard let info = try? DirectoryHandle.status(of: path) else { continue }
            let age = now - DirectoryHandle.modificationTime(info)
            if name.hasSuffix(Self.creatingSuffix), !name.hasPrefix(Self.removalPrefix),
                age <= Double(Self.abandonedDraftAge.components.seconds)
            {
                continue
            }
            guard DirectoryHandle.isDirectory(info) else {
                if (try? DirectoryHandle.removeTree(path)) != nil { removed += 1 }
                continue
            }
            // A draft whose writer is alive is locked; its lock is held
            // while it is deleted, so no writer can pick it up meanwhile.
            guard let handle = try? DirectoryHandle.openFolder(path),
                (try? handle.lock(wait: false)) == true
            else { continue }
            if (try? DirectoryHandle.removeTree(path)) != nil { removed += 1 }
        }
        return removed
    }

    /// Deletes now what completed, cancelled or killed shares left in
    /// `.staging` (`share inbox clean`): the folders of entries that left
    /// the inbox (including those ``deferredRemovalBytes`` left for later)
    /// and drafts of writers that died. Every scan does the same; this is
    /// for a process that should not wait for one. Folders still locked by
    /// a live process are left alone.
    /// - Returns: how many folders (or stray files) were deleted.
    /// - Throws: ``InboxError`` when the inbox's folders are unsafe or cannot be opened.
    @discardableResult
    public func removeLeftovers() throws(InboxError) -> Int {
        removeAbandonedStaging(folders: try openFolders())
    }
}
