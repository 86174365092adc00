import ShareKitKeychainInterface

/// Turns the fields of a ``SecretItemKey`` into file names and back.
///
/// Each field is percent-encoded over its UTF-8 bytes: only ASCII letters,
/// digits, `-`, `_` and `.` (not at the start) stay as they are, so an
/// encoded field never contains `/`, never is `.` or `..`, never starts with
/// `.` (the store's own `.lock` and the temporary `.<item>.tmp-…` files of
/// its writes) and never contains `~`, which separates the fields. The
/// encoding is reversible, so listing needs only the directory, and strict,
/// so foreign files are ignored.
enum ItemFileName {
    /// The suffix of every item file.
    static let suffix = ".item"
    /// The longest file name most Linux file systems accept.
    static let maximumLength = 255

    /// The directory name of an access group.
    /// - Parameter accessGroup: the group.
    /// - Returns: the encoded name.
    /// - Throws: ``KeychainError/invalidName(_:)`` for an empty or unusable group.
    static func directoryName(accessGroup: String) throws -> String {
        try validate(accessGroup, mayBeEmpty: false)
        let name = encode(accessGroup)
        guard name.utf8.count <= maximumLength else { throw KeychainError.invalidName(accessGroup) }
        return name
    }

    /// The file name of an item, `<service>~<account>~<scope>.item`.
    /// - Parameter key: the item's key.
    /// - Returns: the encoded name.
    /// - Throws: ``KeychainError/invalidName(_:)`` for an empty service, a
    ///   control character, or a name too long for the file system.
    static func fileName(for key: SecretItemKey) throws -> String {
        try validate(key.service, mayBeEmpty: false)
        try validate(key.account, mayBeEmpty: true)
        try validate(key.scope, mayBeEmpty: true)
        let name = [key.service, key.account, key.scope].map(encode).joined(separator: "~") + suffix
        guard name.utf8.count <= maximumLength else { throw KeychainError.invalidName(key.description) }
        return name
    }

    /// The key an item file name stands for.
    /// - Parameters:
    ///   - fileName: a name found in a group's directory.
    ///   - accessGroup: that directory's group.
    /// - Returns: the key, or nil when the name is not one this store writes.
    static func key(fromFileName fileName: String, accessGroup: String) -> SecretItemKey? {
        guard fileName.hasSuffix(suffix) else { return nil }
        let fields = fileName.dropLast(suffix.count).split(separator: "~", omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        let decoded = fields.compactMap { decode($0) }
        guard decoded.count == 3, !decoded[0].isEmpty else { return nil }
        return SecretItemKey(accessGroup: accessGroup, service: decoded[0], account: decoded[1], scope: decoded[2])
    }

    /// The group a directory name stands for.
    /// - Parameter directoryName: a name found in the base directory.
    /// - Returns: the group, or nil when the name is not one this store writes.
    static func accessGroup(fromDirectoryName directoryName: String) -> String? {
        guard let group = decode(Substring(directoryName)), !group.isEmpty else { return nil }
        return group
    }

    // MARK: - Encoding

    private static func isKept(_ byte: UInt8, atStart: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        case UInt8(ascii: "."):
            return !atStart
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes every byte that is not kept.
    static func encode(_ field: String) -> String {
        var out: [UInt8] = []
        for (index, byte) in field.utf8.enumerated() {
            if isKept(byte, atStart: index == 0) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes a field, accepting only the exact form ``encode(_:)`` writes.
    static func decode(_ field: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(field.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self), encode(text) == field else { return nil }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        hexDigits.firstIndex(of: byte).map { UInt8($0) }
    }

    /// Refuses names a person could not read back in an error or a listing:
    /// empty where a name is required, or holding control characters.
    private static func validate(_ name: String, mayBeEmpty: Bool) throws {
        if name.isEmpty && !mayBeEmpty { throw KeychainError.invalidName(name) }
        let hasControl = name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        if hasControl {
            // The message shows the control characters escaped so the error stays one readable line.
            let shown = name.unicodeScalars.map {
                $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0)
            }
            throw KeychainError.invalidName(shown.joined())
        }
    }
}
