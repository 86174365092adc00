import KeychainStore
import SecureFiles

print(FileKeychain())
