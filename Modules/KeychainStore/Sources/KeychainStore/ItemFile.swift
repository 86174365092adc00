import Foundation
import ShareKitKeychainInterface

/// The content of one item file, version 1: a small JSON object with the
/// item's key fields (so a file that was moved or renamed is detected) and
/// the value in base64.
///
/// ```json
/// {"accessGroup":"…","account":"…","format":"sharekit-keychain-item","scope":"…","service":"…","value":"…","version":1}
/// ```
struct ItemFile: Codable {
    /// The format marker, so a stray file is not mistaken for an item.
    static let formatName = "sharekit-keychain-item"
    /// The version this code writes and reads.
    static let currentVersion = 1

    var format: String
    var version: Int
    var accessGroup: String
    var service: String
    var account: String
    var scope: String
    /// The secret in standard base64.
    var value: String

    /// Encodes an item.
    /// - Parameters:
    ///   - value: the secret.
    ///   - key: its key.
    /// - Returns: the file's bytes.
    static func encode(_ value: SecretValue, for key: SecretItemKey) -> [UInt8] {
        let file = ItemFile(
            format: formatName, version: currentVersion, accessGroup: key.accessGroup, service: key.service,
            account: key.account, scope: key.scope, value: value.withBytes { Data($0).base64EncodedString() })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and an integer cannot fail.
        return Array((try? encoder.encode(file)) ?? Data()) + [UInt8(ascii: "\n")]
    }

    /// Decodes an item and checks that it belongs to `key`.
    ///
    /// Decoding errors are not passed on: their context could quote the
    /// file, and the file holds the secret.
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - key: the key it was read for.
    /// - Returns: the secret.
    /// - Throws: ``KeychainError/corruptItem(_:)`` when the bytes are not a
    ///   version-1 item of `key`.
    static func decode(_ bytes: [UInt8], for key: SecretItemKey) throws -> SecretValue {
        guard let file = try? JSONDecoder().decode(ItemFile.self, from: Data(bytes)),
            file.format == formatName, file.version == currentVersion,
            file.accessGroup == key.accessGroup, file.service == key.service,
            file.account == key.account, file.scope == key.scope,
            let data = Data(base64Encoded: file.value)
        else { throw KeychainError.corruptItem(key) }
        return SecretValue(bytes: Array(data))
    }
}
