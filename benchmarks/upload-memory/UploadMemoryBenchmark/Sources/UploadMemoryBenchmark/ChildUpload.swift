import Foundation
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitOpenSSLCrypto
import ShareKitServerAPI
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitUploads
import ShareKitUploadsInterface

/// One measured upload in a fresh process (`--child ORIGIN FILE SHA256 HOME
/// USERNAME PASSWORD PART_SIZE`): the client stack as the share extension
/// builds it (a file keychain and a container in HOME, the device key,
/// CurlHTTPClient under DPoPHTTPClient, login and a child session, a
/// RefreshingTokenProvider, StreamingUploader with FileUploadRecordStore),
/// then one upload. It prints `key value` lines on stdout for the parent:
/// VmHWM at start, after login and at the end, the upload's seconds, and
/// whether the server's SHA-256 matched.
struct ChildUpload {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let origin: String
    let path: String
    let expectedSHA256: String
    let home: String
    let username: String
    let password: String
    let partSize: Int64

    init(_ arguments: [String]) throws {
        guard arguments.count == 7, let partSize = Int64(arguments[6]) else {
            throw Failure(description: "--child ORIGIN FILE SHA256 HOME USERNAME PASSWORD PART_SIZE")
        }
        (origin, path, expectedSHA256, home) = (arguments[0], arguments[1], arguments[2], arguments[3])
        (username, password, self.partSize) = (arguments[4], arguments[5], partSize)
    }

    func run() async throws {
        report("vmhwm_start_kib", Memory.kilobytes("VmHWM"))
        let environment = [
            "SHAREKIT_KEYCHAIN": "file", "SHAREKIT_KEYCHAIN_DIR": home + "/keychain",
            "SHAREKIT_CONTAINER_DIR": home + "/container",
        ]
        let accessGroup = "sharekit"
        let secretStore = try KeychainStoreFactory.makeStore(environment: environment)
        let container = try SharedContainerDirectory(environment: environment)
        let crypto = OpenSSLCryptoProvider()
        let deviceKeys = DeviceKeyStore(
            secretStore: secretStore, item: DeviceKeyStore.defaultItem(accessGroup: accessGroup), crypto: crypto,
            locks: container.locks)
        let signed = DPoPHTTPClient(
            client: try CurlHTTPClient(), signer: try deviceKeys.proofSigner(),
            nonces: DPoPNonceHandler(cache: SharedStateNonceCache(state: container.state)))
        let storage = SessionTokenStore(secretStore: secretStore, accessGroup: accessGroup, serverOrigin: origin)
        let locks = container.locks
        func provider(_ role: SessionRole) -> RefreshingTokenProvider {
            RefreshingTokenProvider(role: role, serverOrigin: origin, storage: storage, client: signed, locks: locks)
        }
        let issuer = SessionIssuer(serverOrigin: origin, storage: storage, client: signed, locks: locks)
        _ = try await issuer.login(username: username, password: SecretValue(utf8: password))
        _ = try await issuer.ensureChildSession(parent: provider(.parent))
        report("vmhwm_login_kib", Memory.kilobytes("VmHWM"))
        report("vmrss_login_kib", Memory.kilobytes("VmRSS"))

        let records = FileUploadRecordStore(directory: home + "/records", crypto: crypto)
        let api = AuthorizedClient(origin: origin, client: signed, tokens: provider(.child))
        let uploader = StreamingUploader(api: api, crypto: crypto, records: records, partSizeHint: partSize)
        let source = try UploadFile.source(path: path, contentType: "application/octet-stream")
        let started = ContinuousClock.now
        let done = try await uploader.upload(
            source, limits: UploadLimits(fileMaxUploadBytes: 3 << 30), budget: nil, progress: nil,
            cancellation: nil)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        report("vmhwm_end_kib", Memory.kilobytes("VmHWM"))
        report("vmrss_end_kib", Memory.kilobytes("VmRSS"))
        print("seconds \(seconds)")
        print("upload_id \(done.uploadID)")
        print("sha256_match \(done.sha256 == expectedSHA256 ? "yes" : "no (server \(done.sha256))")")
    }

    private func report(_ key: String, _ kilobytes: Int) {
        print("\(key) \(kilobytes)")
        fflush(nil)
    }
}
