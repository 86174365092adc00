import ShareKitCore
import ShareKitCryptoInterface
import ShareKitImageConversionInterface
import ShareKitIntakeInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loads one source, blocking (it runs on a thread of its own, see
/// ``FileShareIntake``): opens, checks, sniffs, copies, verifies.
struct ItemLoader: Sendable {
    let rules: ContentTypeRules
    let sniffer: any ContentSniffing
    let standardInput: Int32
    /// The open destination folder and its path.
    let directory: Int32
    let directoryPath: String
    let policy: IntakePolicy
    /// Converts photos the server takes only as JPEG; nil converts nothing.
    let converter: (any ImageConverting)?
    /// Where no file is read from, whatever named it.
    let protected: ProtectedPlaceCheck
    /// Hashes the parts of a regular file's copy when the policy asks for
    /// them (``ShareKitIntakeInterface/IntakePolicy/partDigestSize``); nil hashes nothing.
    let crypto: (any CryptoProvider)?

    /// How errors and messages name standard input.
    static let standardInputName = ShareItemSource.standardInput.description
    /// Whether `/proc/self/fd/N` names an open descriptor here (Linux).
    private static let hasProcFileDescriptors = access("/proc/self/fd", F_OK) == 0

    func load(_ source: ShareItemSource, context: LoadContext) throws(IntakeError) -> IntakeItem {
        switch source {
        case .link(let url): return IntakeItem(kind: .link, origin: url, text: url)
        case .text(let text): return IntakeItem(kind: .text, origin: source.description, text: text)
        case .file(let path): return try loadFile(path, context: context)
        case .standardInput: return try loadStandardInput(context: context)
        }
    }

    // MARK: - Files

    /// A path: its target is what the person meant, so symbolic links are
    /// followed; `O_NONBLOCK` keeps a FIFO without a writer from blocking the open.
    private func loadFile(_ path: String, context: LoadContext) throws(IntakeError) -> IntakeItem {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .notFound(item: path)
            case ENXIO: throw .unreadable(item: path, reason: "it is a socket, not a file")
            default: throw .unreadable(item: path, reason: systemMessage(errno))
            }
        }
        let source = OwnedDescriptor(fd: fd)
        // Judged by what was opened, before a byte is read: a link named
        // like a photo that leads to a key is refused all the same.
        try protected.check(descriptor: fd, path: path, item: path)
        guard let info = source.status() else { throw .unreadable(item: path, reason: systemMessage(errno)) }
        let fileName = Self.baseName(path)
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return try attachRegularFile(source, size: Int64(info.st_size), fileName: fileName, context: context)
        case S_IFIFO:
            return try attachAfterCopy(source, info: info, fileName: fileName, context: context)
        case S_IFDIR: throw .unreadable(item: path, reason: "it is a directory")
        case S_IFCHR, S_IFBLK: throw .unreadable(item: path, reason: "it is a device")
        default: throw .unreadable(item: path, reason: "it is not a regular file")
        }
    }

    /// A regular file: size and type are checked before a byte is copied.
    private func attachRegularFile(
        _ source: OwnedDescriptor, size: Int64, fileName: String, context: LoadContext
    ) throws(IntakeError) -> IntakeItem {
        try context.checkSize(size)
        let bytesType = try sniff(descriptor: source.fd, fallbackPath: context.item, context: context)
        let detected = rules.detectedType(bytesType: bytesType, fileName: fileName)
        let upload: String
        do {
            upload = try rules.uploadType(for: detected, accepted: policy.acceptedContentTypes, item: context.item)
        } catch {
            guard let jpeg = jpegType(for: detected) else { throw error }
            return try convert(source.fd, fileName: fileName, detected: detected, jpegType: jpeg, context: context)
        }
        if removesMetadata(from: detected) {
            let (storedName, copied) = try copyWithoutMetadata(source.fd, fileName: fileName, context: context)
            return IntakeItem(
                kind: rules.kind(of: detected), origin: context.item, storedName: storedName, fileName: fileName,
                contentType: upload, detectedContentType: detected, size: copied)
        }
        let (copy, storedName) = try createCopy(index: context.index, fileName: fileName, context: context)
        var copier = FileCopier(source: source.fd, destination: copy.fd, context: context)
        copier.hasher = partHasher(copy: copy.fd, size: size)
        // Stops the hashing thread when the copy fails; nothing once it finished.
        defer { copier.hasher?.cancel() }
        let copied = try copier.copyRegularFile(expectedSize: size)
        guard copied == size else { throw .copyMismatch(item: context.item, expected: size, actual: copied) }
        try copier.finish(copied: copied)
        var item = IntakeItem(
            kind: rules.kind(of: detected), origin: context.item, storedName: storedName, fileName: fileName,
            contentType: upload, detectedContentType: detected, size: copied)
        item.partDigests = copier.hasher?.finish(size: copied)
        return item
    }

    /// The hasher of a regular file's copy of `size` bytes, when the policy
    /// asks for part digests and the file has few enough parts to keep them.
    private func partHasher(copy: Int32, size: Int64) -> CopyHasher? {
        guard let crypto, let partSize = policy.partDigestSize,
            FilePartDigests.partsCount(fileSize: size, partSize: partSize) != nil
        else { return nil }
        return CopyHasher(copy: copy, partSize: partSize, crypto: crypto)
    }

    // MARK: - Streams and standard input

    private func loadStandardInput(context: LoadContext) throws(IntakeError) -> IntakeItem {
        let source = OwnedDescriptor(fd: standardInput, owned: false)
        // `share send - < ~/.ssh/id_ed25519` is refused as the path itself would be.
        try protected.check(descriptor: standardInput, path: nil, item: context.item)
        guard let info = source.status() else { throw .unreadable(item: context.item, reason: systemMessage(errno)) }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            throw .unreadable(item: context.item, reason: "it is a directory")
        }
        return try attachAfterCopy(source, info: info, fileName: nil, context: context)
    }

    /// A FIFO or standard input: the bytes exist only once read, so they are
    /// copied first (size limit enforced while copying), then sniffed; a
    /// refused copy is removed. Standard input that is short, valid UTF-8
    /// text becomes message text.
    /// - Parameter fileName: the source's name; nil for standard input.
    private func attachAfterCopy(
        _ source: OwnedDescriptor, info: stat, fileName: String?, context: LoadContext
    ) throws(IntakeError) -> IntakeItem {
        // Standard input redirected from a file, unread so far, is copied as a
        // file: its size is known before copying and verified after.
        let isRegular = info.st_mode & S_IFMT == S_IFREG && lseek(source.fd, 0, SEEK_CUR) == 0
        if isRegular { try context.checkSize(Int64(info.st_size)) }
        let (copy, storedName) = try createCopy(index: context.index, fileName: fileName ?? "stdin", context: context)
        let copier = FileCopier(source: source.fd, destination: copy.fd, context: context)
        let copied = isRegular ? try copier.copyRegularFile(expectedSize: Int64(info.st_size)) : try copier.copyStream()
        if isRegular, copied != Int64(info.st_size) {
            throw .copyMismatch(item: context.item, expected: Int64(info.st_size), actual: copied)
        }
        try copier.finish(copied: copied)
        do throws(IntakeError) {
            if fileName == nil, copied == 0 {
                throw .invalidItem(item: context.item, reason: "standard input is empty")
            }
            let bytesType = try sniff(
                descriptor: copy.fd, fallbackPath: directoryPath + "/" + storedName, context: context)
            let detected = rules.detectedType(bytesType: bytesType, fileName: fileName)
            if fileName == nil, let text = try inlineText(storedName, size: copied, type: detected, context: context) {
                remove(storedName)
                return IntakeItem(kind: .text, origin: context.item, text: text)
            }
            let upload: String
            do {
                upload = try rules.uploadType(for: detected, accepted: policy.acceptedContentTypes, item: context.item)
            } catch {
                guard let jpeg = jpegType(for: detected) else { throw error }
                // The copy is the photo now: convert it, then let it go.
                let reader = openat(directory, storedName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                guard reader >= 0 else { throw .unreadable(item: context.item, reason: systemMessage(errno)) }
                let photo = OwnedDescriptor(fd: reader)
                let converted = try convert(
                    photo.fd, fileName: fileName ?? "stdin", detected: detected, jpegType: jpeg, context: context)
                remove(storedName)
                return converted
            }
            var name = fileName ?? "stdin"
            var stored = storedName
            var size = copied
            if removesMetadata(from: detected) {
                // The copy is the photo now: copy it again without its metadata, then let it go.
                let reader = openat(directory, storedName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                guard reader >= 0 else { throw .unreadable(item: context.item, reason: systemMessage(errno)) }
                let photo = OwnedDescriptor(fd: reader)
                (stored, size) = try copyWithoutMetadata(photo.fd, fileName: name, context: context)
                remove(storedName)
            }
            if fileName == nil, let ext = rules.preferredExtension(for: detected) {
                name += "." + ext
                stored = rename(stored, to: StoredName.make(index: context.index, fileName: name))
            }
            return IntakeItem(
                kind: rules.kind(of: detected), origin: context.item, storedName: stored, fileName: name,
                contentType: upload, detectedContentType: detected, size: size)
        } catch {
            remove(storedName)
            throw error
        }
    }

    /// The copy's bytes as text when standard input is text, at most
    /// `maximumInlineTextBytes` long and valid UTF-8; nil otherwise.
    private func inlineText(
        _ storedName: String, size: Int64, type: String, context: LoadContext
    ) throws(IntakeError) -> String? {
        guard size <= Int64(policy.maximumInlineTextBytes), rules.catalog.conforms(type, to: ContentTypeRules.textPlain)
        else { return nil }
        // Written through a write-only descriptor: read it back by name.
        let reader = openat(directory, storedName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard reader >= 0 else { throw .unreadable(item: context.item, reason: systemMessage(errno)) }
        let file = OwnedDescriptor(fd: reader)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                pread(file.fd, $0.baseAddress! + done, $0.count - done, off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .unreadable(item: context.item, reason: "the copy could not be read back") }
            done += n
        }
        return String(validating: bytes, as: UTF8.self)
    }

    // MARK: - The destination folder

    /// Creates an empty copy (mode 0600, never through a symbolic link)
    /// under a fresh plain name.
    func createCopy(
        index: Int, fileName: String, context: LoadContext
    ) throws(IntakeError) -> (OwnedDescriptor, String) {
        for attempt in 0..<100 {
            let name = StoredName.make(index: index, fileName: fileName, attempt: attempt)
            // Read too: the part digests are hashed from the copy itself (CopyHasher).
            let fd = openat(directory, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 { return (OwnedDescriptor(fd: fd), name) }
            switch errno {
            case EEXIST: continue
            case ENOSPC, EDQUOT: throw .noSpace(item: context.item)
            default:
                throw .unreadable(item: context.item, reason: "the copy cannot be created: \(systemMessage(errno))")
            }
        }
        throw .unreadable(item: context.item, reason: "the copy cannot be created: every name is taken")
    }

    func remove(_ storedName: String) {
        unlinkat(directory, storedName, 0)
    }

    /// Renames a copy when the new name is free; keeps the old name otherwise.
    private func rename(_ storedName: String, to newName: String) -> String {
        guard newName != storedName, faccessat(directory, newName, F_OK, AT_SYMLINK_NOFOLLOW) != 0 else {
            return storedName
        }
        return renameat(directory, storedName, directory, newName) == 0 ? newName : storedName
    }

    // MARK: - Helpers

    /// Sniffs exactly the open file (through `/proc/self/fd`, so a file
    /// swapped under the same path after the open is not what is judged).
    private func sniff(descriptor: Int32, fallbackPath: String, context: LoadContext) throws(IntakeError) -> String {
        let path = Self.hasProcFileDescriptors ? "/proc/self/fd/\(descriptor)" : fallbackPath
        do {
            return try sniffer.contentType(ofFileAt: path)
        } catch {
            if case .unreadable(_, let reason) = error { throw .unreadable(item: context.item, reason: reason) }
            throw error
        }
    }

    static func baseName(_ path: String) -> String {
        let components = path.split(separator: "/")
        return components.last.map(String.init) ?? path
    }
}
