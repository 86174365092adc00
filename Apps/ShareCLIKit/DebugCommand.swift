import AppSupport
import ClientAssembly
import DPoP
import DPoPInterface
import Foundation

/// `share debug`: aids for people who integrate a server: a DPoP proof made
/// with this device's key, and the key's public JWK with its thumbprint.
enum DebugCommand {
    static let help = """
        Usage: share debug dpop-proof --method M --url U [--access-token-file F] [--nonce N]
               share debug jwk

        dpop-proof  prints a DPoP proof (RFC 9449) signed with the device key of the
                    configured keychain (the key is created on first use). With
                    --access-token-file the proof carries `ath` for the token in F
                    (the token itself is never printed). With --nonce it carries `nonce`.
        jwk         prints {"jwk": {...}, "jkt": "..."}: the public key and its RFC 7638
                    thumbprint, the value a server binds sessions to (cnf.jkt).

        Environment: SHAREKIT_KEYCHAIN (file|secret-service), SHAREKIT_KEYCHAIN_DIR,
        SHAREKIT_CONTAINER_DIR.

        """

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) -> ExitCode {
        guard let sub = arguments.first, sub != "--help", sub != "-h" else {
            io.out.write(help)
            return arguments.isEmpty ? .usage : .success
        }
        do {
            switch sub {
            case "jwk":
                _ = try ParsedArguments(Array(arguments.dropFirst()), flags: [], options: [])
                let signer = try ClientAssembly(environment: environment).deviceKeys.proofSigner()
                io.out.write("{\"jwk\":\(signer.publicJWK.canonicalJSON),\"jkt\":\"\(signer.thumbprint)\"}\n")
                return .success
            case "dpop-proof":
                let parsed = try ParsedArguments(
                    Array(arguments.dropFirst()), flags: [],
                    options: ["--method", "--url", "--access-token-file", "--nonce"])
                let method = try parsed.required("--method")
                let url = try parsed.required("--url")
                var token: String?
                if let file = parsed.value("--access-token-file") {
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
                let signer = try ClientAssembly(environment: environment).deviceKeys.proofSigner()
                let proof = try signer.makeProof(
                    method: method, url: url, accessToken: token, nonce: parsed.value("--nonce"))
                io.out.write(proof + "\n")
                return .success
            default:
                io.err.write("share debug: unknown subcommand '\(sub)'; run 'share debug --help'\n")
                return .usage
            }
        } catch let error as UsageError {
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
}
