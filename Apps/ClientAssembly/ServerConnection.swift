import Foundation
import ShareKitCore
import ShareKitDPoP
public import ShareKitDeliveryInterface
public import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitImageConversion
import ShareKitMatrixBackend
import ShareKitMessages
public import ShareKitMessagesInterface
import ShareKitPushPreview
public import ShareKitPushPreviewInterface
import ShareKitServerAPI
public import ShareKitServerAPIInterface
import ShareKitSessions
public import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitTargetStore
public import ShareKitTargetStoreInterface
import ShareKitUploads
public import ShareKitUploadsInterface

/// The client side's stack for one server, as `share` and `share-daemon`
/// build it: the DPoP-signing HTTP client on libcurl with the device key and
/// the shared nonce cache, the session token store in the shared keychain
/// group, the session issuer, token providers per role, the authorized API
/// client per role, and the services built on it (the server as the
/// delivery engine sends to it, the message client, the target directory,
/// push registration and previews).
///
/// It hands out interfaces only: the programs never see which module
/// implements them. Built by ``ClientAssembly/connection(to:)``; tests use
/// the same wiring, so what they exercise is what the programs run.
public final class ServerConnection: Sendable {
    /// The server's origin (`http://127.0.0.1:PORT`).
    public let origin: String
    /// Signs every request with the device key (DPoP) and handles nonces:
    /// for the token endpoints and for callers that need the raw answer.
    public let signed: any DPoPSigningHTTPClient
    /// The session tokens of this server, one item per role.
    public let storage: any SessionTokenStorage
    /// Logs in (parent session), creates child sessions, logs out.
    public let issuer: any SessionIssuing
    /// Which kind of server this is: the backend every service below is built for.
    public let kind: ServerKind
    /// The Matrix homeserver's API, for an account on one (nil for a ShareKit server).
    private let matrix: MatrixHomeserver?
    private let assembly: ClientAssembly
    private let sessionConfiguration: SessionConfiguration

    init(assembly: ClientAssembly, origin: String, kind: ServerKind, loadsLibraryEarly: Bool) throws {
        self.assembly = assembly
        self.origin = origin
        self.kind = kind
        sessionConfiguration = SessionConfiguration(timeouts: Self.limited(SessionConfiguration().timeouts, assembly))
        let signed = try assembly.signingClient(loadsLibraryEarly: loadsLibraryEarly)
        let storage = assembly.sessionStorage(at: origin)
        self.signed = signed
        self.storage = storage
        switch kind {
        case .sharekit:
            matrix = nil
            issuer = SessionIssuer(
                serverOrigin: origin, storage: storage, client: signed, locks: assembly.container.locks,
                configuration: sessionConfiguration)
        case .matrix(let homeserver):
            // Matrix has no DPoP: its requests go out over a plain client.
            let matrix = MatrixHomeserver(
                baseURL: homeserver,
                client: try CurlHTTPClient(configuration: .init(loadsLibraryEarly: loadsLibraryEarly)),
                timeouts: Self.limited(HTTPTimeouts(), assembly))
            self.matrix = matrix
            issuer = MatrixSessionIssuer(
                homeserver: matrix, storage: storage, locks: assembly.container.locks,
                deviceNames: Self.matrixDeviceName)
        }
    }

    /// The display name of a device on a Matrix homeserver, so that the
    /// person recognises both in Element's session list and knows which one
    /// to sign out: `ShareKit share-daemon on HOST`, `ShareKit share (command line) on HOST`.
    static func matrixDeviceName(_ role: SessionRole) -> String {
        let host = TerminalText.neutralised(String(ProcessInfo.processInfo.hostName.prefix(64)))
        switch role {
        case .parent: return "ShareKit share-daemon on \(host)"
        case .child: return "ShareKit share (command line) on \(host)"
        }
    }

    /// A token provider for one family: `.child` for the CLI, `.parent` for the daemon.
    /// - Parameter role: whose tokens.
    /// - Returns: the provider (refreshes that family only).
    public func provider(_ role: SessionRole) -> any AccessTokenProvider {
        if let matrix {
            return MatrixTokenProvider(
                role: role, homeserver: matrix, storage: storage, locks: assembly.container.locks)
        }
        return RefreshingTokenProvider(
            role: role, serverOrigin: origin, storage: storage, client: signed, locks: assembly.container.locks,
            configuration: sessionConfiguration)
    }

    /// The authorized API client of a session: every resource call of that
    /// family goes through it.
    /// - Parameter role: whose session.
    /// - Returns: the client (each attempt within ``requestTimeouts``).
    public func api(_ role: SessionRole) -> any AuthorizedAPIClient {
        AuthorizedClient(origin: origin, client: signed, tokens: provider(role), timeouts: requestTimeouts)
    }

    /// The time limits of the requests of a send (upload parts, messages,
    /// target lookups): the modules' defaults, stalls capped by
    /// ``ClientAssembly/requestStallLimit``.
    public var requestTimeouts: HTTPTimeouts { Self.limited(HTTPTimeouts(), assembly) }

    private static func limited(_ timeouts: HTTPTimeouts, _ assembly: ClientAssembly) -> HTTPTimeouts {
        guard let stall = assembly.requestStallLimit else { return timeouts }
        var limited = timeouts
        limited.connect = min(timeouts.connect, stall)
        limited.lowSpeedTime = min(timeouts.lowSpeedTime, stall)
        if limited.lowSpeedLimit == 0 { limited.lowSpeedLimit = 1 }
        return limited
    }

    /// The streaming uploader for a session, keeping its resumable upload
    /// records in `recordsDirectory`.
    /// - Parameters:
    ///   - role: whose session uploads.
    ///   - recordsDirectory: where upload records live (another process resumes from them).
    /// - Returns: the uploader.
    public func uploader(_ role: SessionRole, recordsDirectory: String) -> any FileUploading {
        streamingUploader(api(role), recordsDirectory: recordsDirectory)
    }

    private func streamingUploader(_ api: any AuthorizedAPIClient, recordsDirectory: String) -> StreamingUploader {
        StreamingUploader(
            api: api, crypto: assembly.crypto,
            records: FileUploadRecordStore(directory: recordsDirectory, crypto: assembly.crypto))
    }

    /// The message client of a session (createMessage, createThread, instance limits).
    /// - Parameter role: whose session.
    /// - Returns: the client.
    public func messages(_ role: SessionRole) -> any MessageCreating {
        if let matrix { return MatrixMessageClient(homeserver: matrix, tokens: provider(role)) }
        return MessageClient(api: api(role))
    }

    /// The server as the delivery engine sends to it, for the CLI and the
    /// daemon: the uploader and the message client of one session.
    /// - Parameters:
    ///   - role: whose session sends.
    ///   - limits: the server's limits (from the shared state).
    ///   - recordsDirectory: where upload records live.
    /// - Returns: the server.
    public func sender(_ role: SessionRole, limits: MessageLimits, recordsDirectory: String) -> DeliveryServer {
        if let connected = matrix {
            let tokens = provider(role)
            let matrix = connected.waitingOutRateLimits(within: MatrixWaitBudget(total: Self.matrixRateLimitWaits))
            return DeliveryServer(
                uploader: MatrixMediaUploader(
                    homeserver: matrix, tokens: tokens, crypto: assembly.crypto,
                    photos: MatrixPhotoConversion(converter: JPEGImageConverter())),
                messages: MatrixMessageClient(homeserver: matrix, tokens: tokens), limits: limits)
        }
        // One client for both, so uploads and the message share one token provider.
        let api = api(role)
        return DeliveryServer(
            uploader: streamingUploader(api, recordsDirectory: recordsDirectory), messages: MessageClient(api: api),
            limits: limits)
    }

    /// How long one share waits out a Matrix homeserver's rate limits
    /// inline before it is kept for a later attempt: long enough for a
    /// burst of shares that Synapse's default `rc_message` slows down (a
    /// few seconds each), short enough that `share send` does not seem to hang.
    static let matrixRateLimitWaits = Duration.seconds(30)

    /// The server's targets as a session sees them (channels, threads, write permission).
    /// - Parameters:
    ///   - role: whose session asks.
    ///   - cacheLifetime: how long answers are reused (a picker searching as
    ///     the person types asks the server less often).
    /// - Returns: the directory.
    public func targets(_ role: SessionRole, cacheLifetime: Duration = .seconds(15)) -> any TargetDirectory {
        if let matrix { return MatrixRoomDirectory(homeserver: matrix, tokens: provider(role)) }
        return ServerTargetDirectory(api: api(role), cacheLifetime: cacheLifetime)
    }

    /// Push registration and metrics with the app's session (the parent
    /// family); a registration records that session's id.
    /// - Returns: the registrar.
    public func pushRegistrar() -> any PushRegistering {
        let storage = self.storage
        return PushRegistrar(api: api(.parent), sessionID: { (try? storage.read(.parent))??.sessionID })
    }

    /// The preview fetcher of the notifier over this connection's signing client.
    /// - Returns: the fetcher.
    public func previewClient() -> any PreviewFetching {
        assembly.previewClient(signed: signed)
    }

    /// The notifier over this connection's signing client (the daemon's):
    /// it gets the preview fetcher, never a session.
    /// - Returns: the notifier.
    public func notifier() -> any PushNotifying {
        assembly.notifier(previews: previewClient())
    }
}

extension ClientAssembly {
    /// The DPoP-signing HTTP client of this app group: libcurl, the device
    /// key's proofs, the nonce cache in the shared state.
    /// - Parameter loadsLibraryEarly: start loading libcurl now, in the
    ///   background (the default: the first request need not wait), or only
    ///   on the first request (see ``ServerConnection``).
    /// - Returns: the client.
    /// - Throws: `HTTPClientError` when libcurl cannot be set up, `DPoPError`
    ///   when the device key cannot be loaded or created.
    public func signingClient(loadsLibraryEarly: Bool = true) throws -> any DPoPSigningHTTPClient {
        DPoPHTTPClient(
            client: try CurlHTTPClient(configuration: .init(loadsLibraryEarly: loadsLibraryEarly)),
            signer: try deviceKeys.proofSigner(),
            nonces: DPoPNonceHandler(cache: SharedStateNonceCache(state: container.state)))
    }

    /// The preview fetcher of the notifier: each registration's preview
    /// token (never a session token) with the device key's proofs. It holds
    /// no session, so `share notify` can render without one.
    /// - Parameter signed: the signing client.
    /// - Returns: the fetcher.
    func previewClient(signed: any DPoPSigningHTTPClient) -> any PreviewFetching {
        PreviewClient { registration in
            AuthorizedClient(
                origin: registration.origin, client: signed,
                tokens: FixedAccessToken(registration.previewToken, label: "push preview"))
        }
    }

    /// Starts loading the HTTP library (libcurl and OpenSSL, about 6 ms of
    /// one core) in the background before the assembly is made: a command
    /// that will certainly ask the server (`share send` of a text) calls this
    /// first, so that reading the keychain and the shared state runs beside
    /// the load rather than ahead of it. A no-op after the first call, and
    /// after a connection that already started the load.
    public static func startLoadingHTTPLibrary() {
        CurlLibrary.loadInBackground()
    }

    /// The client stack for one server.
    /// - Parameters:
    ///   - origin: the server's origin.
    ///   - loadsLibraryEarly: start loading libcurl now, in the background
    ///     (the default), or only on the first request: `share send` with a
    ///     file says no, so that libcurl and what it links are not yet in
    ///     memory while intake sniffs the file with libmagic (the two would
    ///     add up in the peak of a large share).
    /// - Returns: the connection.
    /// - Throws: `HTTPClientError` when libcurl cannot be set up, `DPoPError`
    ///   when the device key cannot be loaded or created.
    /// - Parameter kind: the kind of server; nil takes the one the account
    ///   at `origin` recorded (a ShareKit server when there is none).
    public func connection(to origin: String, kind: ServerKind? = nil, loadsLibraryEarly: Bool = true) throws
        -> ServerConnection
    {
        let kind = try kind ?? accounts.account(at: origin).serverKind
        return try ServerConnection(assembly: self, origin: origin, kind: kind, loadsLibraryEarly: loadsLibraryEarly)
    }

    /// Which kind of server answers at `origin`, as `share login` asks
    /// before it logs in: a Matrix homeserver (discovery through
    /// `/.well-known/matrix/client` and `/_matrix/client/versions`) or,
    /// failing that, a ShareKit server.
    /// - Parameter origin: the server the person named.
    /// - Returns: the kind.
    /// - Throws: `HTTPClientError` when libcurl cannot be set up.
    public func serverKind(at origin: String) async throws -> ServerKind {
        let client = try CurlHTTPClient(configuration: .init())
        var timeouts = HTTPTimeouts()
        timeouts.total = .seconds(10)
        if let homeserver = await MatrixDiscovery.homeserver(at: origin, client: client, timeouts: timeouts) {
            return .matrix(homeserver: homeserver)
        }
        return .sharekit
    }

    /// The session tokens stored for one server, without the HTTP client and
    /// the device key a ``ServerConnection`` brings: for a command that only
    /// reads what is stored (`share status`), so that it starts no libcurl.
    /// - Parameter origin: the server's origin.
    /// - Returns: the storage (one keychain item per role).
    public func sessionStorage(at origin: String) -> any SessionTokenStorage {
        SessionTokenStore(secretStore: secretStore, accessGroup: Self.accessGroup, serverOrigin: origin)
    }
}
