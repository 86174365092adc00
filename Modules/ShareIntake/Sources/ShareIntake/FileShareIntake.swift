import Dispatch
public import ShareKitCryptoInterface
public import ShareKitImageConversionInterface
public import ShareKitIntakeInterface
import ShareKitSecureFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Share intake on Linux: decides what each item is with a
/// ``ContentTypeCatalog`` (the shared MIME database) and a
/// ``ContentSniffing`` (libmagic), and copies attachments into the
/// destination folder by streaming, within each load's deadline. With an
/// ``ImageConverting``, a photo whose type the server refuses while it
/// accepts JPEG is converted into a JPEG in the folder instead.
///
/// See the article "Deciding what an item is" for the rules. Blocking file
/// work runs on a dispatch thread, never on the caller's executor.
public struct FileShareIntake: ShareIntaking {
    private let catalog: CatalogSource
    private let sniffer: any ContentSniffing
    private let standardInputDescriptor: Int32
    private let converter: (any ImageConverting)?
    private let protectedPlaces: ProtectedPlaces
    /// Makes the SHA-256 of the part digests a policy asks for
    /// (``ShareKitIntakeInterface/IntakePolicy/partDigestSize``): each
    /// regular file's copy is hashed part by part while it is made. Nil (the
    /// default) hashes nothing, whatever the policy says.
    public var crypto: (any CryptoProvider)? = nil

    /// The catalog, or how to get it when a file first needs a type.
    private enum CatalogSource: Sendable {
        case ready(any ContentTypeCatalog)
        case deferred(@Sendable () throws(IntakeError) -> any ContentTypeCatalog)
    }

    /// Makes an intake.
    /// - Parameters:
    ///   - catalog: the content types and their conformance, usually a ``FreedesktopMIMECatalog``.
    ///   - sniffer: tells a type from bytes, usually a ``MagicSniffer``.
    ///   - standardInputDescriptor: what ``ShareItemSource/standardInput``
    ///     reads (0; tests pass a pipe). It is read, never closed.
    ///   - converter: converts photos into JPEG for a server that takes no
    ///     other image type; nil refuses them as any other type it does not take.
    ///   - protectedPlaces: where a file is never read from (keys, tokens);
    ///     a file or standard input there is ``IntakeError/protectedFile(item:place:)``.
    public init(
        catalog: any ContentTypeCatalog, sniffer: any ContentSniffing, standardInputDescriptor: Int32 = 0,
        converter: (any ImageConverting)? = nil, protectedPlaces: ProtectedPlaces = ProtectedPlaces([])
    ) {
        self.catalog = .ready(catalog)
        self.sniffer = sniffer
        self.standardInputDescriptor = standardInputDescriptor
        self.converter = converter
        self.protectedPlaces = protectedPlaces
    }

    /// Makes an intake whose catalog is made only when a load has a file
    /// or standard input to type: text and links need none, so a text
    /// share never reads the MIME database (nor fails without one).
    /// - Parameters:
    ///   - catalog: makes the catalog, usually ``FreedesktopMIMECatalog/init(environment:)``;
    ///     called by each load that needs it (that catalog caches its database).
    ///   - sniffer: tells a type from bytes, usually a ``MagicSniffer``.
    ///   - standardInputDescriptor: what ``ShareItemSource/standardInput`` reads.
    ///   - converter: converts photos into JPEG for a server that takes no
    ///     other image type; nil refuses them as any other type it does not take.
    ///   - protectedPlaces: where a file is never read from (keys, tokens);
    ///     a file or standard input there is ``IntakeError/protectedFile(item:place:)``.
    public init(
        catalog: @escaping @Sendable () throws(IntakeError) -> any ContentTypeCatalog,
        sniffer: any ContentSniffing, standardInputDescriptor: Int32 = 0, converter: (any ImageConverting)? = nil,
        protectedPlaces: ProtectedPlaces = ProtectedPlaces([])
    ) {
        self.catalog = .deferred(catalog)
        self.sniffer = sniffer
        self.standardInputDescriptor = standardInputDescriptor
        self.converter = converter
        self.protectedPlaces = protectedPlaces
    }

    /// The rules for a load of `sources`: the catalog's when a source is a
    /// file or standard input, else rules that are never asked.
    /// - Throws: ``IntakeError/unreadable(item:reason:)`` naming the first
    ///   such source when the shared MIME database cannot be loaded.
    private func rules(for sources: [ShareItemSource]) throws(IntakeError) -> ContentTypeRules {
        let typed = sources.first { source in
            switch source {
            case .file, .standardInput: return true
            case .link, .text: return false
            }
        }
        guard let typed else {
            if case .ready(let catalog) = catalog { return ContentTypeRules(catalog: catalog) }
            return ContentTypeRules(catalog: UntypedCatalog())
        }
        return try typedRules(item: typed.description)
    }

    /// The catalog's rules, made now when they were deferred.
    /// - Throws: ``IntakeError/unreadable(item:reason:)`` naming `item` when
    ///   the shared MIME database cannot be loaded.
    private func typedRules(item: String) throws(IntakeError) -> ContentTypeRules {
        switch catalog {
        case .ready(let catalog):
            return ContentTypeRules(catalog: catalog)
        case .deferred(let make):
            do throws(IntakeError) {
                return ContentTypeRules(catalog: try make())
            } catch {
                throw .unreadable(item: item, reason: error.description)
            }
        }
    }

    /// What a command-line argument names: `file://` URLs (local host only,
    /// percent-decoded) and everything that is not a URL are files; a
    /// `scheme://` URL or a `mailto:` address is a link.
    /// - Throws: ``IntakeError/invalidItem(item:reason:)`` for a `file://` URL
    ///   of another host or one that cannot be decoded, an empty argument, or
    ///   a link with spaces or without a host.
    public func source(forArgument argument: String) throws(IntakeError) -> ShareItemSource {
        try ArgumentClassifier.source(forArgument: argument)
    }

    /// Loads the items in order, each within `policy.loadTimeout`; see
    /// ``ShareIntaking/load(_:into:policy:progress:)``.
    /// - Returns: one item per source (an empty list for no sources).
    /// - Throws: ``IntakeError`` for the first item that fails; cancelling
    ///   the task ends a load with ``IntakeError/unreadable(item:reason:)``.
    public func load(
        _ sources: [ShareItemSource], into directory: String, policy: IntakePolicy,
        progress: (@Sendable (IntakeProgress) -> Void)?
    ) async throws(IntakeError) -> [IntakeItem] {
        guard !sources.isEmpty else { return [] }
        let (destination, loader) = try openFolder(directory, policy: policy, rules: try rules(for: sources))
        let cancellation = CancellationFlag()
        var items: [IntakeItem] = []
        for (index, source) in sources.enumerated() {
            let context = LoadContext(
                index: index, item: source.description, deadline: .now + policy.loadTimeout,
                timeout: policy.loadTimeout, limit: policy.fileMaxUploadBytes, progress: progress,
                cancellation: cancellation)
            items.append(
                try await Self.run(cancellation) { () throws(IntakeError) in try loader.load(source, context: context) }
            )
        }
        // The new names must survive a crash as well as the bytes (fsync of
        // the folder); best effort, as before: the copies themselves are synced.
        // Links and text are never written to the folder: nothing to sync then.
        if items.contains(where: { $0.storedName != nil }) { try? DurableFile.sync(destination.fd, path: directory) }
        // The magic database is needed again only by the next load.
        (sniffer as? MagicSniffer)?.releaseDatabase()
        return withExtendedLifetime(destination) { items }
    }

    /// Converts an attachment already copied into `directory` into a JPEG
    /// beside it, within `policy.loadTimeout`; see
    /// ``ShareIntaking/convertToJPEG(_:index:in:policy:)``.
    /// - Returns: the JPEG as an item, or nil when the item is not converted.
    /// - Throws: ``IntakeError/notConvertible(item:contentType:reason:)`` for
    ///   a photo that cannot be converted, and the errors of a load.
    public func convertToJPEG(_ item: IntakeItem, index: Int, in directory: String, policy: IntakePolicy)
        async throws(IntakeError) -> IntakeItem?
    {
        guard converter != nil else { return nil }
        let (destination, loader) = try openFolder(
            directory, policy: policy, rules: try typedRules(item: item.fileName ?? item.origin))
        let cancellation = CancellationFlag()
        let context = LoadContext(
            index: index, item: item.fileName ?? item.origin, deadline: .now + policy.loadTimeout,
            timeout: policy.loadTimeout, limit: policy.fileMaxUploadBytes, progress: nil, cancellation: cancellation)
        let converted = try await Self.run(cancellation) { () throws(IntakeError) in
            try loader.convertStored(item, context: context)
        }
        if converted != nil { try? DurableFile.sync(destination.fd, path: directory) }
        return withExtendedLifetime(destination) { converted }
    }

    /// Opens the destination folder and makes the loader that writes into it.
    private func openFolder(_ directory: String, policy: IntakePolicy, rules: ContentTypeRules) throws(IntakeError) -> (
        OwnedDescriptor, ItemLoader
    ) {
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw .unreadable(
                item: directory, reason: "the destination folder cannot be opened: \(systemMessage(errno))")
        }
        let destination = OwnedDescriptor(fd: folder)
        let loader = ItemLoader(
            rules: rules, sniffer: sniffer, standardInput: standardInputDescriptor, directory: destination.fd,
            directoryPath: directory, policy: policy, converter: converter,
            protected: ProtectedPlaceCheck(protectedPlaces), crypto: crypto)
        return (destination, loader)
    }

    /// Runs one blocking step off the pool; cancelling the task sets the flag it polls.
    private static func run<T: Sendable>(
        _ cancellation: CancellationFlag, _ work: @escaping @Sendable () throws(IntakeError) -> T
    ) async throws(IntakeError) -> T {
        let result = await withTaskCancellationHandler {
            await Self.offThePool { () -> Result<T, IntakeError> in
                do throws(IntakeError) { return .success(try work()) } catch { return .failure(error) }
            }
        } onCancel: {
            cancellation.set()
        }
        return try result.get()
    }

    /// Runs blocking work on a thread of its own so that a slow disk or a
    /// stalled pipe never holds a thread of the cooperative pool, nor one of
    /// the dispatch pool: a load blocks for as long as its source does (a
    /// FIFO until its deadline), and a load queued behind blocked dispatch
    /// workers could not start in time to meet its own deadline.
    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            if !detachThread({ continuation.resume(returning: work()) }) {
                // No thread to be had: a dispatch worker, as before.
                DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
            }
        }
    }
}

/// The catalog of a load without files or standard input: text and links
/// are never typed, so nothing asks it (and it knows nothing).
private struct UntypedCatalog: ContentTypeCatalog {
    func canonical(_ contentType: String) -> String { MIMEDatabase.bare(contentType) }
    func conforms(_ contentType: String, to other: String) -> Bool { canonical(contentType) == canonical(other) }
    func contentTypes(forFileName fileName: String) -> [String] { [] }
    func isKnown(_ contentType: String) -> Bool { false }
}
