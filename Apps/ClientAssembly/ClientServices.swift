import Foundation
public import ShareKitCore
import ShareKitDPoP
public import ShareKitDPoPInterface
import ShareKitDelivery
public import ShareKitDeliveryInterface
import ShareKitHTTPTransport
import ShareKitImageConversion
import ShareKitInbox
public import ShareKitInboxInterface
import ShareKitIntake
public import ShareKitIntakeInterface
import ShareKitKeychainStore
public import ShareKitMessagesInterface
import ShareKitOutbox
public import ShareKitOutboxInterface
import ShareKitPushPreview
public import ShareKitPushPreviewInterface
import ShareKitSQLiteStore
import ShareKitSecureFiles
public import ShareKitServerAPIInterface
public import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitTargetStore
public import ShareKitTargetStoreInterface
import ShareKitUploads
public import ShareKitUploadsInterface

/// The services of the shared container and the device that need no
/// server: the share inbox, the intake, the recent targets, the push
/// registrations and the notifier, the daemon's outbox. Each factory
/// returns an interface; `share` and `share-daemon` never name the module
/// behind it.
extension ClientAssembly {
    // MARK: - Share inbox and intake

    /// The write-ahead share inbox in the shared container, reporting
    /// entries older than ``inboxMaximumAge``.
    /// - Parameter leavingLargeRemovals: whether completed entries of at
    ///   least ``largeRemovalBytes`` leave the inbox without being deleted,
    ///   for a `share inbox clean` started in the background (`share send`).
    /// - Returns: the inbox.
    public func shareInbox(leavingLargeRemovals: Bool = false) -> any ShareInboxStoring {
        FileShareInbox(
            directory: container.inboxPath, maximumAge: inboxMaximumAge,
            deferredRemovalBytes: leavingLargeRemovals ? Self.largeRemovalBytes : nil)
    }

    /// From this size on, deleting a sent share's copy is left to a
    /// background `share inbox clean`: deleting a 2 GiB file took 1.1 s on
    /// an ext4 mounted with `discard`, while a few MiB go in a millisecond.
    public static let largeRemovalBytes: Int64 = 64 << 20

    /// The share intake: what a command-line argument names and loading it,
    /// with the freedesktop shared MIME database of the environment (read
    /// only when a file or standard input is loaded: a text share needs no
    /// type) and libmagic, converting photos into JPEG for a server that
    /// takes no other image type (libheif, libwebp, libtiff, libjpeg-turbo).
    /// It never reads a file in one of the ``protectedPlaces``.
    /// - Returns: the intake.
    /// - Throws: nothing any more: a missing MIME database is an
    ///   `IntakeError` of the load that needs it.
    public func shareIntake() throws -> any ShareIntaking {
        let environment = environment
        var intake = FileShareIntake(
            catalog: { () throws(IntakeError) in try FreedesktopMIMECatalog(environment: environment) },
            sniffer: MagicSniffer(), converter: JPEGImageConverter(), protectedPlaces: protectedPlaces)
        // The part digests a policy asks for are hashed as each copy is made.
        intake.crypto = crypto
        return intake
    }

    /// Where a share never reads a file: where other programs keep keys
    /// and tokens (``ProtectedPlaces/usualSecrets(environment:)``) and
    /// ShareKit's own keychain, container, daemon state and runtime
    /// folders, both as this environment chooses them and at their default
    /// places (a file keychain holds the device key and the refresh tokens;
    /// the container, every share's copies).
    public var protectedPlaces: ProtectedPlaces {
        var places = ProtectedPlaces.usualSecrets(environment: environment)
        places.add([
            FileKeychain.defaultDirectory(environment: environment), container.rootPath, daemonStateDirectory,
            daemonRuntimeDirectory,
        ])
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { places.add([state + "/sharekit"]) }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            places.add([runtime + "/sharekit"])
        }
        return places
    }

    /// The shared MIME database as a conformance relation (`text/csv`
    /// conforms to `text/plain`): for `share send` to match a type told
    /// before the server's list was known against that list.
    /// - Returns: the catalog.
    /// - Throws: `IntakeError` when no shared MIME database can be read.
    public func contentTypeCatalog() throws -> any ContentTypeCatalog {
        try FreedesktopMIMECatalog(environment: environment)
    }

    /// Tells a file's content type from its bytes (libmagic), for a preview line.
    /// - Returns: the sniffer.
    public func contentSniffer() -> any ContentSniffing {
        MagicSniffer()
    }

    /// The content types the desktop entry offers ShareKit for, written once
    /// in the intake (`contrib/desktop/sharekit.desktop` is generated from them).
    public static var offeredContentTypes: [String] { OfferedContentTypes.all }

    // MARK: - Targets

    /// An account's recent targets in the shared state (the picker's first
    /// list, the offline fallback of `share send --to`): the targets of its
    /// server only.
    /// - Parameter account: the server and the username.
    /// - Returns: the store.
    public func recentTargets(of account: SignedInAccount) -> any RecentTargetsStoring {
        SharedStateRecentTargets(state: container.state, account: account.scope)
    }

    // MARK: - Device key and transport

    /// The device key's DPoP proof signer (the key is created on first use).
    /// - Returns: the signer.
    /// - Throws: `DPoPError` when the key cannot be loaded or created.
    public func proofSigner() throws -> any DPoPProofSigner {
        try deviceKeys.proofSigner()
    }

    /// The HTTP library and the version ShareKit was built with, for
    /// `--version` (`libcurl 8.5.0`); libcurl itself is loaded only by the
    /// first request, so `--version` does not load it.
    public static var transportVersion: String { "libcurl \(CurlLibrary.buildVersion)" }

    // MARK: - Uploads

    /// The upload source of a file as it is on disk now.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - fileName: the name the server is told.
    ///   - contentType: the file's content type.
    /// - Returns: the source (its size and identity read now).
    /// - Throws: `APIError.failed(.fileChanged)` when the file cannot be read.
    public static func uploadSource(path: String, fileName: String, contentType: String) throws(APIError)
        -> UploadSource
    {
        try UploadFile.source(path: path, fileName: fileName, contentType: contentType)
    }

    /// Removes the resumable upload records whose files are gone (the
    /// takeover moved a share the CLI had begun to upload).
    /// - Parameter directory: where the upload records live.
    /// - Returns: how many records were removed.
    /// - Throws: `UploadRecordStoreError` when the records cannot be read or removed.
    public func pruneUploadRecordsOfMissingFiles(in directory: String) throws(UploadRecordStoreError) -> Int {
        try FileUploadRecordStore(directory: directory, crypto: crypto).pruneRecordsOfMissingFiles()
    }

    // MARK: - Push

    /// The push registrations of this device in the keychain's access group.
    /// - Returns: the store.
    public func pushRegistrations() -> any PushRegistrationStoring {
        KeychainPushRegistrations(store: secretStore, accessGroup: Self.accessGroup)
    }

    /// The notifier over a preview fetcher: the keychain's push
    /// registrations, the shared state, the environment's language. No session.
    /// - Parameter previews: fetches previews with the preview token.
    /// - Returns: the notifier.
    public func notifier(previews: any PreviewFetching) -> any PushNotifying {
        PushNotifier(
            client: previews, registrations: pushRegistrations(), state: container.state,
            strings: PushStrings(environment: environment))
    }

    /// The notifier of `share notify`: the device key's proofs, no session.
    /// - Returns: the notifier.
    /// - Throws: `HTTPClientError` when libcurl cannot be set up, `DPoPError`
    ///   when the device key cannot be loaded or created.
    public func notifier() throws -> any PushNotifying {
        notifier(previews: previewClient(signed: try signingClient()))
    }

    /// Shows notifications on this desktop (`notify-send`, or the program
    /// named by `SHAREKIT_NOTIFY_COMMAND`).
    /// - Returns: the presenter.
    public func notificationPresenter() -> any NotificationPresenting {
        Self.notificationPresenter(environment: environment)
    }

    /// Shows notifications on this desktop, for a program that has no
    /// assembly (yet): a desktop launch says why it could not even start.
    /// - Parameter environment: `SHAREKIT_NOTIFY_COMMAND`, `PATH`, the session bus, the language.
    /// - Returns: the presenter.
    public static func notificationPresenter(environment: [String: String]) -> any NotificationPresenting {
        NotificationPresenter(environment: environment)
    }

    /// The notifier's display counters in the shared state.
    /// - Returns: the counters.
    public func displayCounters() -> any PushDisplayCounting {
        DisplayCounters(state: container.state)
    }

    /// Reads a push payload (`aps` and `b`).
    /// - Parameter bytes: the payload's JSON text.
    /// - Returns: the payload.
    /// - Throws: `PushError` when it is not JSON or lacks a required member.
    public static func pushPayload(from bytes: [UInt8]) throws(PushError) -> PushPayload {
        try PushPayloadParser.parse(bytes)
    }

    /// Reads a push payload that arrived as JSON inside another document (an event).
    /// - Parameter value: the payload.
    /// - Returns: the payload.
    /// - Throws: `PushError` when it lacks a required member.
    public static func pushPayload(from value: JSONValue) throws(PushError) -> PushPayload {
        try PushPayloadParser.parse(value)
    }

    // MARK: - The daemon's outbox

    /// The daemon's outbox: SQLite in `stateDirectory` (made private, 0700,
    /// on first use), its files beside the database.
    /// - Parameter stateDirectory: the daemon's own storage.
    /// - Returns: the queue.
    /// - Throws: `SecureFileError` when the folder is unsafe or cannot be
    ///   made, `SQLError` when the database cannot be opened, `OutboxError`
    ///   when its schema cannot be set up.
    public func outbox(stateDirectory: String) throws -> any OutboxQueueing {
        _ = try SecureDirectory.openBase(stateDirectory, create: true)
        let database = try SQLiteDatabase(path: stateDirectory + "/outbox.db")
        return try SQLiteOutbox(database: database, directory: stateDirectory + "/outbox")
    }

    /// Where share-daemon keeps its own storage (the outbox): the app's
    /// storage, not the shared container's inbox. `SHAREKIT_STATE_DIR`,
    /// else `<container>/daemon` for `SHAREKIT_CONTAINER_DIR`, else
    /// `$XDG_STATE_HOME/sharekit`, else `~/.local/state/sharekit`. `share`
    /// reads the same outbox, so a share keeps its id once the daemon took it over.
    public var daemonStateDirectory: String {
        if let dir = environment["SHAREKIT_STATE_DIR"], !dir.isEmpty { return dir }
        if environment["SHAREKIT_CONTAINER_DIR"]?.isEmpty == false { return container.rootPath + "/daemon" }
        if let dir = environment["XDG_STATE_HOME"], !dir.isEmpty { return dir + "/sharekit" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/sharekit"
    }

    /// The daemon's outbox as `share status` and `share inbox` read and
    /// change it (list, counts, drop, retry; never enqueue or claim), or nil
    /// when no daemon has made one in ``daemonStateDirectory`` yet (nothing
    /// is created then). It is read from the database, not asked over the
    /// control socket, so that a person sees it and acts on it whether the
    /// daemon runs or not; the queue is safe for several processes at once.
    /// - Returns: the outbox, or nil.
    /// - Throws: what ``outbox(stateDirectory:)`` throws.
    public func existingDaemonOutbox() throws -> (any OutboxManaging)? {
        let directory = daemonStateDirectory
        guard FileManager.default.fileExists(atPath: directory + "/outbox.db") else { return nil }
        return try outbox(stateDirectory: directory)
    }

    /// The takeover of the share inbox into the outbox.
    /// - Parameters:
    ///   - inbox: the share inbox.
    ///   - outbox: the outbox.
    /// - Returns: the takeover (one pass per ``OutboxTakingOver/run()``).
    public func inboxTakeover(inbox: any ShareInboxStoring, outbox: any OutboxQueueing) -> any OutboxTakingOver {
        InboxTakeover(inbox: inbox, outbox: outbox)
    }

    /// The drainer of the outbox: sends each item exactly once, with the
    /// shared backoff between attempts.
    /// - Parameters:
    ///   - outbox: the queue.
    ///   - makeSender: the server for a server origin (an item names its server).
    ///   - lease: how long a claim lasts before another pass may take the item back.
    ///   - sentCallback: called after an item is marked sent.
    ///   - observer: each step, for the log.
    /// - Returns: the drainer (one pass per ``OutboxDraining/drainOnce()``).
    public func outboxDrainer(
        outbox: any OutboxQueueing, makeSender: @escaping @Sendable (String) -> DeliveryServer, lease: Duration,
        sentCallback: (@Sendable (OutboxItem, SentMessage) -> Void)? = nil,
        observer: (@Sendable (DrainEvent) -> Void)? = nil
    ) -> any OutboxDraining {
        OutboxDrainer(
            outbox: outbox, delivery: deliveryEngine(), makeSender: makeSender, lease: lease,
            sentCallback: sentCallback, observer: observer)
    }

    /// The one delivery engine: `share send`, `share inbox retry` and the
    /// daemon's outbox deliver through it.
    /// - Returns: the engine.
    public func deliveryEngine() -> any ShareDelivering {
        DeliveryEngine()
    }

    /// What a failed request would mean for a share, in every language: the
    /// delivery engine's one reading of the API client's classification,
    /// for share-daemon's words when the server's limits cannot be read.
    /// - Parameter error: the API client's classification.
    /// - Returns: the words.
    public static func shareText(of error: APIError) -> LocalizedText {
        DeliveryEngine.text(of: error)
    }
}
