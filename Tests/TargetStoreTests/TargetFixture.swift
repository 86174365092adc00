import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterfaceTesting
import ShareKitKeychainInterface
import ShareKitSessions
import ShareKitSessionsInterface
import ShareKitSessionsInterfaceTesting
import ShareKitSystemTesting
import ShareKitTargetStore
import ShareKitTargetStoreInterface
import Testing

/// One person signed in to a real `share-server` (the demo seed unless
/// given) with the CLI's child session, and a ``ServerTargetDirectory``
/// over it that asks the server every time (no cache), so each check sees
/// the server's current answer.
final class TargetFixture: @unchecked Sendable {
    let sandbox: ClientSandbox
    let directory: ServerTargetDirectory

    /// - Parameters:
    ///   - username: the person (demo password `<name>-demo-pass`).
    ///   - seed: the server's seed, nil for `demo`.
    ///   - signIn: false leaves the client without any session.
    init(as username: String = "alex", seed: [String: Any]? = nil, signIn: Bool = true) async throws {
        sandbox = try ClientSandbox(seed: seed, prefix: "targetstore-test")
        do {
            if signIn {
                let issuer = sandbox.connection.issuer
                try await issuer.login(username: username, password: SecretValue(utf8: "\(username)-demo-pass"))
                try await issuer.ensureChildSession(parent: sandbox.connection.provider(.parent))
            }
        } catch {
            sandbox.close()
            throw error
        }
        directory = ServerTargetDirectory(api: sandbox.connection.api(.child), cacheLifetime: .zero)
    }

    func close() { sandbox.close() }
}

/// Runs `body` and returns its TargetError (nil when it succeeded; any
/// other error is recorded as an issue).
func targetError<T>(_ body: () async throws -> T) async -> TargetError? {
    do {
        _ = try await body()
        return nil
    } catch let error as TargetError {
        return error
    } catch {
        Issue.record("not a TargetError: \(error)")
        return nil
    }
}

extension TargetError {
    /// The display paths of the suggestions or candidates, in order.
    var offeredPaths: [String] {
        switch self {
        case .notFound(_, let candidates), .ambiguous(_, let candidates): return candidates.map(\.target.displayPath)
        default: return []
        }
    }
}
