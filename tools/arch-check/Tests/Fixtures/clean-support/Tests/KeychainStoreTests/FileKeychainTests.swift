import KeychainInterface
import KeychainStore
import SecureFiles
import Testing

@Test func fileKeychain() {}
