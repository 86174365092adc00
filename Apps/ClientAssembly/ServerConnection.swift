import DPoP
public import DeliveryInterface
public import HTTPInterface
import HTTPTransport
import Messages
public import MessagesInterface
import PushPreview
public import PushPreviewInterface
import ServerAPI
public import ServerAPIInterface
import Sessions
public import SessionsInterface
import SharedState
import SharedStateInterface
import TargetStore
public import TargetStoreInterface
import Uploads
public import UploadsInterface

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
    private let assembly: ClientAssembly
    private let sessionConfiguration: SessionConfiguration

    init(assembly: ClientAssembly, origin: String, loadsLibraryEarly: Bool) throws {
        self.assembly = assembly
        self.origin = origin
        sessionConfiguration = SessionConfiguration(timeouts: Self.limited(SessionConfiguration().timeouts, assembly))
        let signed = try assembly.signingClient(loadsLibraryEarly: loadsLibraryEarly)
        let storage = assembly.sessionStorage(at: origin)
        self.signed = signed
        self.storage = storage
        issuer = SessionIssuer(
            serverOrigin: origin, storage: storage, client: signed, locks: assembly.container.locks,
            configuration: sessionConfiguration)
    }

    /// A token provider for one family: `.child` for the CLI, `.parent` for the daemon.
    /// - Parameter role: whose tokens.
    /// - Returns: the provider (refreshes that family only).
    public func provider(_ role: SessionRole) -> any AccessTokenProvider {
        RefreshingTokenProvider(
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
        MessageClient(api: api(role))
    }

    /// The server as the delivery engine sends to it, for the CLI and the
    /// daemon: the uploader and the message client of one session.
    /// - Parameters:
    ///   - role: whose session sends.
    ///   - limits: the server's limits (from the shared state).
    ///   - recordsDirectory: where upload records live.
    /// - Returns: the server.
    public func sender(_ role: SessionRole, limits: MessageLimits, recordsDirectory: String) -> DeliveryServer {
        // One client for both, so uploads and the message share one token provider.
        let api = api(role)
        return DeliveryServer(
            uploader: streamingUploader(api, recordsDirectory: recordsDirectory), messages: MessageClient(api: api),
            limits: limits)
    }

    /// The server's targets as a session sees them (channels, threads, write permission).
    /// - Parameters:
    ///   - role: whose session asks.
    ///   - cacheLifetime: how long answers are reused (a picker searching as
    ///     the person types asks the server less often).
    /// - Returns: the directory.
    public func targets(_ role: SessionRole, cacheLifetime: Duration = .seconds(15)) -> any TargetDirectory {
        ServerTargetDirectory(api: api(role), cacheLifetime: cacheLifetime)
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
    public func connection(to origin: String, loadsLibraryEarly: Bool = true) throws -> ServerConnection {
        try ServerConnection(assembly: self, origin: origin, loadsLibraryEarly: loadsLibraryEarly)
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
