import Dispatch
import SecureFiles
public import ShareIntakeInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Share intake on Linux: decides what each item is with a
/// ``ContentTypeCatalog`` (the shared MIME database) and a
/// ``ContentSniffing`` (libmagic), and copies attachments into the
/// destination folder by streaming, within each load's deadline.
///
/// See the article "Deciding what an item is" for the rules. Blocking file
/// work runs on a dispatch thread, never on the caller's executor.
public struct FileShareIntake: ShareIntaking {
    private let catalog: CatalogSource
    private let sniffer: any ContentSniffing
    private let standardInputDescriptor: Int32

    /// The catalog, or how to get it when a file first needs a type.
    private enum CatalogSource: Sendable {
        case ready(any ContentTypeCatalog)
        case deferred(@Sendable () throws(MIMEDatabaseError) -> any ContentTypeCatalog)
    }

    /// Makes an intake.
    /// - Parameters:
    ///   - catalog: the content types and their conformance, usually a ``FreedesktopMIMECatalog``.
    ///   - sniffer: tells a type from bytes, usually a ``MagicSniffer``.
    ///   - standardInputDescriptor: what ``ShareItemSource/standardInput``
    ///     reads (0; tests pass a pipe). It is read, never closed.
    public init(
        catalog: any ContentTypeCatalog, sniffer: any ContentSniffing, standardInputDescriptor: Int32 = 0
    ) {
        self.catalog = .ready(catalog)
        self.sniffer = sniffer
        self.standardInputDescriptor = standardInputDescriptor
    }

    /// Makes an intake whose catalog is made only when a load has a file
    /// or standard input to type: text and links need none, so a text
    /// share never reads the MIME database (nor fails without one).
    /// - Parameters:
    ///   - catalog: makes the catalog, usually ``FreedesktopMIMECatalog/init(environment:)``;
    ///     called by each load that needs it (that catalog caches its database).
    ///   - sniffer: tells a type from bytes, usually a ``MagicSniffer``.
    ///   - standardInputDescriptor: what ``ShareItemSource/standardInput`` reads.
    public init(
        catalog: @escaping @Sendable () throws(MIMEDatabaseError) -> any ContentTypeCatalog,
        sniffer: any ContentSniffing, standardInputDescriptor: Int32 = 0
    ) {
        self.catalog = .deferred(catalog)
        self.sniffer = sniffer
        self.standardInputDescriptor = standardInputDescriptor
    }

    /// The rules for a load of `sources`: the catalog's when a source is a
    /// file or standard input, else rules that are never asked.
    /// - Throws: ``IntakeError/unreadable(item:reason:)`` naming the first
    ///   such source when the shared MIME database cannot be loaded.
    private func rules(for sources: [ShareItemSource]) throws(IntakeError) -> ContentTypeRules {
        switch catalog {
        case .ready(let catalog):
            return ContentTypeRules(catalog: catalog)
        case .deferred(let make):
            let typed = sources.first { source in
                switch source {
                case .file, .standardInput: return true
                case .link, .text: return false
                }
            }
            guard let typed else { return ContentTypeRules(catalog: UntypedCatalog()) }
            do throws(MIMEDatabaseError) {
                return ContentTypeRules(catalog: try make())
            } catch {
                throw .unreadable(item: typed.description, reason: error.description)
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
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw .unreadable(
                item: directory, reason: "the destination folder cannot be opened: \(systemMessage(errno))")
        }
        let destination = OwnedDescriptor(fd: folder)
        let loader = ItemLoader(
            rules: try rules(for: sources), sniffer: sniffer, standardInput: standardInputDescriptor,
            directory: destination.fd, directoryPath: directory, policy: policy)
        let cancellation = CancellationFlag()
        var items: [IntakeItem] = []
        for (index, source) in sources.enumerated() {
            let context = LoadContext(
                index: index, item: source.description, deadline: .now + policy.loadTimeout,
                timeout: policy.loadTimeout, limit: policy.fileMaxUploadBytes, progress: progress,
                cancellation: cancellation)
            let result = await withTaskCancellationHandler {
                await Self.offThePool { () -> Result<IntakeItem, IntakeError> in
                    do throws(IntakeError) { return .success(try loader.load(source, context: context)) } catch {
                        return .failure(error)
                    }
                }
            } onCancel: {
                cancellation.set()
            }
            items.append(try result.get())
        }
        // The new names must survive a crash as well as the bytes (fsync of
        // the folder); best effort, as before: the copies themselves are synced.
        // Links and text are never written to the folder: nothing to sync then.
        if items.contains(where: { $0.storedName != nil }) { try? DurableFile.sync(destination.fd, path: directory) }
        // The magic database is needed again only by the next load.
        (sniffer as? MagicSniffer)?.releaseDatabase()
        return withExtendedLifetime(destination) { items }
    }

    /// Runs blocking work on a dispatch thread so that a slow disk or a
    /// stalled pipe never holds a thread of the cooperative pool.
    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
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
