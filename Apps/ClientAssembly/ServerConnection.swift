import DPoP
public import HTTPInterface
public import HTTPTransport
public import Messages
public import MessagesInterface
public import Sessions
public import SessionsInterface
import SharedState
public import Uploads

/// The client side's stack for one server, as `share` and `share-daemon`
/// build it: the DPoP-signing HTTP client on libcurl with the device key and
/// the shared nonce cache, the session token store in the shared keychain
/// group, the session issuer, token providers per role, and the one
/// ``Messages/Sender``.
///
/// Built by ``ClientAssembly/connection(to:)``; tests use the same wiring,
/// so what they exercise is what the programs run.
public final class ServerConnection: Sendable {
    /// The server's origin (`http://127.0.0.1:PORT`).
    public let origin: String
    /// Signs every request with the device key (DPoP) and handles nonces.
    public let signed: DPoPHTTPClient
    /// The session tokens of this server, one item per role.
    public let storage: SessionTokenStore
    /// Logs in (parent session) and creates child sessions.
    public let issuer: SessionIssuer
    private let assembly: ClientAssembly
    private let sessionConfiguration: SessionConfiguration

    init(assembly: ClientAssembly, origin: String) throws {
        self.assembly = assembly
        self.origin = origin
        sessionConfiguration = SessionConfiguration(timeouts: Self.limited(SessionConfiguration().timeouts, assembly))
        signed = DPoPHTTPClient(
            client: try CurlHTTPClient(), signer: try assembly.deviceKeys.proofSigner(),
            nonces: DPoPNonceHandler(cache: SharedStateNonceCache(state: assembly.container.state)))
        storage = SessionTokenStore(
            secretStore: assembly.secretStore, accessGroup: ClientAssembly.accessGroup, serverOrigin: origin)
        issuer = SessionIssuer(
            serverOrigin: origin, storage: storage, client: signed, locks: assembly.container.locks,
            configuration: sessionConfiguration)
    }

    /// A token provider for one family: `.child` for the CLI, `.parent` for the daemon.
    /// - Parameter role: whose tokens.
    /// - Returns: the provider (refreshes that family only).
    public func provider(_ role: SessionRole) -> RefreshingTokenProvider {
        RefreshingTokenProvider(
            role: role, serverOrigin: origin, storage: storage, client: signed, locks: assembly.container.locks,
            configuration: sessionConfiguration)
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
    public func uploader(_ role: SessionRole, recordsDirectory: String) -> StreamingUploader {
        StreamingUploader(
            serverOrigin: origin, client: signed, tokens: provider(role), crypto: assembly.crypto,
            records: FileUploadRecordStore(directory: recordsDirectory, crypto: assembly.crypto),
            timeouts: requestTimeouts)
    }

    /// The message client of a session (createMessage, createThread, instance limits).
    /// - Parameter role: whose session.
    /// - Returns: the client.
    public func messages(_ role: SessionRole) -> MessageClient {
        MessageClient(serverOrigin: origin, client: signed, tokens: provider(role), timeouts: requestTimeouts)
    }

    /// The one sending implementation of the CLI and the daemon (seed 001):
    /// uploads, then the message, every failure classified.
    /// - Parameters:
    ///   - role: whose session sends.
    ///   - limits: the server's limits (from the shared state).
    ///   - recordsDirectory: where upload records live.
    /// - Returns: the sender.
    public func sender(_ role: SessionRole, limits: MessageLimits, recordsDirectory: String) -> Sender {
        let tokens = provider(role)
        return Sender(
            uploader: uploader(role, recordsDirectory: recordsDirectory),
            messages: MessageClient(serverOrigin: origin, client: signed, tokens: tokens, timeouts: requestTimeouts),
            limits: limits)
    }
}

extension ClientAssembly {
    /// The client stack for one server.
    /// - Parameter origin: the server's origin.
    /// - Returns: the connection.
    /// - Throws: `HTTPClientError` when libcurl cannot be set up, `DPoPError`
    ///   when the device key cannot be loaded or created.
    public func connection(to origin: String) throws -> ServerConnection {
        try ServerConnection(assembly: self, origin: origin)
    }
}
