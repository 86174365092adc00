import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore

/// `keychain-backend`: makes the store that the environment asks for
/// (`SHAREKIT_KEYCHAIN`, `SHAREKIT_KEYCHAIN_DIR`) and prints `backend <type>`,
/// or `error <description>` and exits 3 when it cannot be made.
func keychainBackendCommand(_ arguments: [String]) throws {
    do {
        let store = try KeychainStoreFactory.makeStore()
        if let file = store as? FileKeychain {
            print("backend FileKeychain \(file.directory)")
        } else {
            print("backend \(type(of: store))")
        }
    } catch {
        print("error \(error)")
        exit(3)
    }
}
