import Foundation
public import ShareKitKeychainInterface
import ShareKitKeychainSecretService

/// Makes the secret store that configuration asks for; the composition
/// roots in `Apps/` call this and hold only the returned ``SecretStore``.
public enum KeychainStoreFactory {
    /// Makes a store.
    /// - Parameters:
    ///   - backend: the backend; when nil, ``KeychainBackend/fromEnvironment(_:)``.
    ///   - environment: the environment for the backend choice and the file
    ///     store's directory; nil for this process's.
    /// - Returns: the store.
    /// - Throws: ``KeychainError/backendUnavailable(_:)`` when the backend name
    ///   is unknown or the Secret Service cannot be reached.
    public static func makeStore(
        backend: KeychainBackend? = nil, environment: [String: String]? = nil
    ) throws -> any SecretStore {
        let environment = environment ?? ProcessInfo.processInfo.environment
        switch try backend ?? KeychainBackend.fromEnvironment(environment) {
        case .file(let directory):
            return FileKeychain(directory: directory, environment: environment)
        case .secretService:
            return try SecretServiceKeychain()
        }
    }
}
