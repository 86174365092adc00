import ShareKitKeychainInterface

/// Which secret store the programs use, chosen by configuration
/// (`SHAREKIT_KEYCHAIN=file|secret-service`).
public enum KeychainBackend: Sendable, Equatable, CustomStringConvertible {
    /// The embedded ``FileKeychain``; `directory` overrides its base
    /// directory (nil: `SHAREKIT_KEYCHAIN_DIR` or the XDG default).
    case file(directory: String? = nil)
    /// The freedesktop Secret Service (gnome-keyring, KeePassXC, …) through
    /// libsecret, for desktop sessions that have one.
    case secretService

    /// The environment variable that chooses the backend.
    public static let environmentVariable = "SHAREKIT_KEYCHAIN"

    /// The backend's configuration name: `file` or `secret-service`.
    public var name: String {
        switch self {
        case .file: return "file"
        case .secretService: return "secret-service"
        }
    }

    /// The configuration name.
    public var description: String { name }

    /// Parses a configuration name.
    /// - Parameter name: `file` or `secret-service`.
    /// - Throws: ``KeychainError/backendUnavailable(_:)`` naming the accepted values.
    public init(name: String) throws {
        switch name {
        case "file": self = .file()
        case "secret-service": self = .secretService
        default:
            throw KeychainError.backendUnavailable(
                "unknown keychain backend '\(name)'; \(Self.environmentVariable) must be 'file' or 'secret-service'")
        }
    }

    /// The backend the environment asks for: `SHAREKIT_KEYCHAIN`, or the file
    /// store when it is unset or empty.
    /// - Parameter environment: the environment variables.
    /// - Returns: the backend.
    /// - Throws: ``KeychainError/backendUnavailable(_:)`` for an unknown name.
    public static func fromEnvironment(_ environment: [String: String]) throws -> KeychainBackend {
        guard let name = environment[environmentVariable], !name.isEmpty else { return .file() }
        return try KeychainBackend(name: name)
    }
}
