import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore

/// `keychain-hammer <keychain dir> <writer id> <iterations>`: writes and reads
/// one shared item `iterations` times. Every value is self-describing
/// (``HammerValue``), so whatever writer wrote it, a reader can tell whether it
/// is whole; a torn or mixed value fails the command. Prints `done <reads>`.
func keychainHammerCommand(_ arguments: [String]) throws {
    let args = HelperArguments(arguments, usage: "keychain-hammer <keychain dir> <writer id> <iterations>")
    let store = FileKeychain(directory: try args.string(0))
    let writer = try args.integer(1)
    let key = SecretItemKey(accessGroup: "hammer.group", service: "hammer.item")
    var reads = 0
    for iteration in 0..<(try args.integer(2)) {
        try store.write(SecretValue(utf8: HammerValue.make(writer: writer, iteration: iteration)), for: key)
        for _ in 0..<2 {
            guard let value = try store.read(key) else { throw HelperFailure("the item vanished") }
            guard let text = value.utf8String, HammerValue.isWhole(text) else {
                throw HelperFailure("torn value of \(value.count) bytes")
            }
            reads += 1
        }
    }
    print("done \(reads)")
}
