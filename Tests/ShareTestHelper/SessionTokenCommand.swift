import Foundation
import ShareKitClientAssembly
import ShareKitDPoP
import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSharedState
import ShareKitSharedStateInterface

/// `session-token <app|share_ext> <origin> [--wait-go] [--pause-after-persist] [--check]`:
/// one program of the app group asking for its family's access token, the
/// way `share` (child) or `share-daemon` (parent) does: keychain and
/// container from `SHAREKIT_KEYCHAIN_DIR` / `SHAREKIT_CONTAINER_DIR`
/// through ``ClientAssembly``, the device key from the keychain, libcurl
/// with DPoP, and a ``RefreshingTokenProvider`` for the role.
///
/// Lines on standard output, for tests to wait on (never a token):
/// - `ready`, with `--wait-go`: then it waits for a line on standard input
///   before asking, so a test can start many at once.
/// - `event <event>` for each ``SessionRefreshEvent``.
/// - `paused`, with `--pause-after-persist`: right after the new pair was
///   written and before the new access token is used; it then waits for a
///   line on standard input (tests kill it here).
/// - `token <session id>`, then with `--check` `check <status>` of
///   `GET /api/v1/spaces` sent with the token.
/// - `unavailable <reason>` (exit 3) or `error <message>` (exit 4) when
///   no token could be had.
func sessionTokenCommand(_ arguments: [String]) throws {
    let args = HelperArguments(
        arguments, usage: "session-token <app|share_ext> <origin> [--wait-go] [--pause-after-persist] [--check]")
    guard let role = SessionRole(rawValue: try args.string(0)) else {
        throw HelperFailure("unknown role '\(try args.string(0))'")
    }
    let origin = try args.string(1)
    let flags = Set(arguments.dropFirst(2))
    let pauseAfterPersist = flags.contains("--pause-after-persist")

    let assembly = try ClientAssembly(environment: ProcessInfo.processInfo.environment)
    let signed = DPoPHTTPClient(
        client: try CurlHTTPClient(), signer: try assembly.deviceKeys.proofSigner(),
        nonces: DPoPNonceHandler(cache: SharedStateNonceCache(state: assembly.container.state)))
    let storage = SessionTokenStore(
        secretStore: assembly.secretStore, accessGroup: ClientAssembly.accessGroup, serverOrigin: origin)
    let provider = RefreshingTokenProvider(
        role: role, serverOrigin: origin, storage: storage, client: signed, locks: assembly.container.locks,
        observer: { event in
            printFlushed("event \(event)")
            if pauseAfterPersist, case .persisted = event {
                printFlushed("paused")
                _ = readLine()
            }
        })

    if flags.contains("--wait-go") {
        printFlushed("ready")
        _ = readLine()
    }
    let outcome = runBlocking { () async -> Result<Int?, SessionError> in
        do throws(SessionError) {
            let token = try await provider.currentAccessToken()
            printFlushed("token \(token.sessionID)")
            guard flags.contains("--check") else { return .success(nil) }
            let spaces = HTTPClientRequest(method: .get, url: origin + "/api/v1/spaces")
            do {
                return .success(try await signed.send(spaces, accessToken: token.plainText).status)
            } catch {
                return .failure(.failed("GET /api/v1/spaces: \(error)"))
            }
        } catch {
            return .failure(error)
        }
    }
    switch outcome {
    case .success(let status?):
        printFlushed("check \(status)")
    case .success(nil):
        break
    case .failure(.unavailable(let reason)):
        printFlushed("unavailable \(reason.rawValue)")
        exit(3)
    case .failure(let error):
        printFlushed("error \(error)")
        exit(4)
    }
}
