public import KeychainInterface
import SecureFiles

/// Secrets in files of a secure directory.
public struct FileKeychain: SecretStore {}
