import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDPoPInterface
import ShareKitHTTPInterface
import ShareKitServerAPIInterface
import ShareKitSessionsInterface

/// `share debug`: aids for people who integrate a server: a DPoP proof made
/// with this device's key, and the key's public JWK with its thumbprint.
enum DebugCommand {
    static let help = """
        Usage: share debug dpop-proof --method M --url U [--access-token-file F] [--nonce N]
               share debug jwk
               share debug get PATH [PATH ...] [--server URL]

        dpop-proof  prints a DPoP proof (RFC 9449) signed with the device key of the
                    configured keychain (the key is created on first use). With
                    --access-token-file the proof carries `ath` for the token in F
                    (the token itself is never printed). With --nonce it carries `nonce`.
        jwk         prints {"jwk": {...}, "jkt": "..."}: the public key and its RFC 7638
                    thumbprint, the value a server binds sessions to (cnf.jkt).
        get         GETs each PATH (e.g. /api/v1/threads/t1/messages) from the server with
                    the share CLI's child session and prints each JSON answer on a line of
                    its own, in order (one process for many requests: tools/chaos checks a
                    whole run this way). Exit 1 when the server refuses any of them (its
                    answer is still printed, the others still asked) or cannot be reached.

        Environment: SHAREKIT_KEYCHAIN (file|secret-service), SHAREKIT_KEYCHAIN_DIR,
        SHAREKIT_CONTAINER_DIR.

        """

    /// The subcommands of `share debug`, in help order.
    static let subcommands = ShareCommands.debug.subcommands.map(\.name)

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        guard let sub = arguments.first, sub != "--help", sub != "-h" else {
            io.out.write(help)
            return arguments.isEmpty ? .usage : .success
        }
        do {
            switch sub {
            case "jwk":
                _ = try ParsedArguments(Array(arguments.dropFirst()), command: ShareCommands.debugJWK)
                let signer = try ClientAssembly(environment: environment).proofSigner()
                io.out.write("{\"jwk\":\(signer.publicJWK.canonicalJSON),\"jkt\":\"\(signer.thumbprint)\"}\n")
                return .success
            case "get":
                let parsed = try ParsedArguments(Array(arguments.dropFirst()), command: ShareCommands.debugGet)
                guard !parsed.positionals.isEmpty, parsed.positionals.allSatisfy({ $0.hasPrefix("/") }) else {
                    throw ProgramError.usage("share debug get needs PATHs starting with /")
                }
                return await get(
                    parsed.positionals, server: parsed.value(Options.server), io: io, environment: environment)
            case "dpop-proof":
                let parsed = try ParsedArguments(Array(arguments.dropFirst()), command: ShareCommands.debugProof)
                let method = try parsed.required(Options.method)
                let url = try parsed.required(Options.url)
                var token: String?
                if let file = parsed.value(Options.accessTokenFile) {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        io.err.write("share debug: cannot read the access token file \(file)\n")
                        return .failure
                    }
                    token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    guard token?.isEmpty == false else {
                        io.err.write("share debug: the access token file \(file) is empty\n")
                        return .failure
                    }
                }
                let signer = try ClientAssembly(environment: environment).proofSigner()
                let proof = try signer.makeProof(
                    method: method, url: url, accessToken: token, nonce: parsed.value(Options.nonce))
                io.out.write(proof + "\n")
                return .success
            default:
                io.err.write(
                    "share debug: unknown subcommand '\(sub)'\(Suggestion.didYouMean(sub, in: subcommands)); "
                        + "run 'share debug --help'\n")
                return .usage
            }
        } catch let error as ProgramError where error.isUsage {
            io.err.write("share debug: \(error); run 'share debug --help'\n")
            return .usage
        } catch let error as DPoPError {
            switch error {
            case .invalidURL, .invalidMethod:
                io.err.write("share debug: \(error)\n")
                return .usage
            default:
                io.err.write("share debug: \(error)\n")
                return .failure
            }
        } catch {
            io.err.write("share debug: \(error)\n")
            return .failure
        }
    }

    /// `share debug get`: one GET per path with the child session, one answer per line.
    static func get(_ paths: [String], server: String?, io: ProgramIO, environment: [String: String]) async -> ExitCode
    {
        do {
            let context = try CLIContext(environment: environment, server: server)
            let api = context.connection.api(.child)
            var refused = false
            for path in paths {
                do {
                    let answer = try await api.send(APIRequest("GET \(path)", path: path))
                    io.out.write(oneLine(answer.body) + "\n")
                } catch {
                    refused = true
                    // Still one line per path: the refusal's problem document
                    // as the server sent it, else what went wrong.
                    switch error {
                    case .refused(let refusal):
                        io.out.write(oneLine(refusal.body) + "\n")
                    case .retryable, .sessionEnded:
                        let line = (try? APIJSON.encode(JSONValue.object(["error": .string("\(error)")]))) ?? []
                        io.out.write(String(decoding: line, as: UTF8.self) + "\n")
                    case .cancelled, .failed:
                        throw error
                    }
                    if case .refused(let refusal) = error {
                        io.err.write("share debug: GET \(path) answered \(refusal.status)\n")
                    } else {
                        io.err.write("share debug: GET \(path): \(error)\n")
                    }
                }
            }
            return refused ? .failure : .success
        } catch let error as ProgramError where error.isUsage {
            io.err.write("share debug: \(error)\n")
            return .usage
        } catch {
            io.err.write("share debug: \(error)\n")
            return .failure
        }
    }

    /// A JSON answer on one line, so that several answers can be read line by line.
    private static func oneLine(_ body: [UInt8]) -> String {
        let text = String(decoding: body, as: UTF8.self)
        guard text.contains("\n") || text.contains("\r") else { return text }
        if let value = try? APIJSON.decode(JSONValue.self, from: body), let bytes = try? APIJSON.encode(value) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
