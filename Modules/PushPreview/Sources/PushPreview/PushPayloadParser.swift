public import ShareKitCore
public import ShareKitPushPreviewInterface
import ShareKitServerAPIInterface

/// Reads a push payload (docs/protocol.md, "Push"): strict about what the
/// notifier needs, tolerant of everything else.
///
/// Unknown members are ignored, so a server may add some without breaking
/// older notifiers; a missing or mistyped required member (`aps`, `b`,
/// `b.v`, `b.nid`, `b.k`, `b.i`) is an error. A `b.v` other than 1 is not an
/// error: its ids are not read (their meaning may have changed) and the
/// notifier shows the push as sent.
///
/// A payload longer than ``ShareKitPushPreviewInterface/PushPayload/maximumSize``
/// is refused. Long members are cut, so the notification is still shown:
/// `b.nid`, `b.k`, `b.i` and `b.t` to ``maxIDBytes`` and the alert's texts
/// to ``maxTitleBytes`` and ``maxBodyBytes`` (UTF-8 bytes, on a character
/// boundary, ending in `…`); a `b.m` longer than ``maxIDBytes`` names no
/// message this server made and counts as absent (the placeholder is shown).
public enum PushPayloadParser {
    /// The longest id kept whole (`b.nid`, `b.k`, `b.i`, `b.t`, `b.m`), in UTF-8 bytes.
    public static let maxIDBytes = 256
    /// The longest alert title or localization key kept whole, in UTF-8 bytes.
    public static let maxTitleBytes = 1024
    /// The longest alert body kept whole, in UTF-8 bytes.
    public static let maxBodyBytes = 4096

    /// Parses a payload.
    /// - Parameter bytes: the payload's JSON.
    /// - Returns: the payload.
    /// - Throws: ``PushError`` when it is larger than the limit, not
    ///   a JSON object, or a required member is missing or mistyped.
    public static func parse(_ bytes: [UInt8]) throws(PushError) -> PushPayload {
        guard bytes.count <= PushPayload.maximumSize else { throw .tooLarge(limit: PushPayload.maximumSize) }
        guard let value = try? APIJSON.decode(JSONValue.self, from: bytes) else { throw .notJSON }
        return try parse(value)
    }

    /// Parses a payload that is already a JSON value (the `payload` of a `push` event).
    /// - Parameter value: the payload.
    /// - Returns: the payload.
    /// - Throws: ``PushError`` when it is not an object or a required member is missing or mistyped.
    public static func parse(_ value: JSONValue) throws(PushError) -> PushPayload {
        guard case .object(let object) = value else { throw .notJSON }
        guard let apsValue = object["aps"] else { throw .missingMember("aps") }
        guard case .object(let aps) = apsValue else { throw .invalidMember("aps") }
        guard let bValue = object["b"] else { throw .missingMember("b") }
        guard case .object(let b) = bValue else { throw .invalidMember("b") }
        guard let versionValue = b["v"] else { throw .missingMember("b.v") }
        guard let version = integer(versionValue) else { throw .invalidMember("b.v") }
        let alert = try readAlert(aps)
        guard version == 1 else { return PushPayload(version: version, ids: nil, alert: alert) }
        let ids = PushIDs(
            nid: cut(try requiredString(b, "nid")), kind: cut(try requiredString(b, "k")),
            instance: cut(try requiredString(b, "i")), thread: try optionalString(b, "t").map(cut),
            message: try optionalString(b, "m").flatMap { $0.utf8.count > maxIDBytes ? nil : $0 })
        return PushPayload(version: version, ids: ids, alert: alert)
    }

    private static func readAlert(_ aps: [String: JSONValue]) throws(PushError) -> PushAlert {
        var alert = PushAlert()
        switch aps["alert"] {
        case nil: break
        case .string(let text): alert.body = NotificationText.cut(text, maxBytes: maxBodyBytes)
        case .object(let dictionary):
            alert.title = dictionary["title"]?.stringValue.map { NotificationText.cut($0, maxBytes: maxTitleBytes) }
            alert.body = dictionary["body"]?.stringValue.map { NotificationText.cut($0, maxBytes: maxBodyBytes) }
            alert.titleKey = dictionary["title-loc-key"]?.stringValue.map(cut)
            alert.bodyKey = dictionary["loc-key"]?.stringValue.map(cut)
        default: throw .invalidMember("aps.alert")
        }
        alert.threadID = aps["thread-id"]?.stringValue.flatMap { bounded($0, maxLength: maxThreadIDLength) }
        alert.badge = aps["badge"].flatMap(integer).flatMap { badgeRange.contains($0) ? $0 : nil }
        alert.sound = aps["sound"].flatMap(sound)
        alert.interruptionLevel = aps["interruption-level"]?.stringValue.flatMap(InterruptionLevel.init(rawValue:))
        return alert
    }

    /// The longest `aps.thread-id` kept, in characters; a longer one groups nothing.
    static let maxThreadIDLength = 256
    /// The badges a desktop can show; others are dropped (APNs itself takes non-negative numbers).
    static let badgeRange = 0...99_999
    /// The sound names kept as they are (an APNs sound names a file of the
    /// app; a desktop plays its own message sound, the name only says that
    /// there is one). Others become `default`.
    static let maxSoundNameLength = 64

    /// `aps.sound`: a name, or the critical-alert dictionary `{"critical":
    /// 1, "name": ..., "volume": ...}`. An empty name is silent, as on Apple
    /// platforms; a name that is too long or has other characters than
    /// letters, digits, `.`, `_` and `-` still asks for a sound, the default one.
    private static func sound(_ value: JSONValue) -> String? {
        let name: String?
        switch value {
        case .string(let text): name = text
        case .object(let dictionary): name = dictionary["name"]?.stringValue ?? "default"
        default: name = nil
        }
        guard let name, !name.isEmpty else { return nil }
        let plain = name.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": return true
            default: return false
            }
        }
        return plain && name.count <= maxSoundNameLength ? name : "default"
    }

    /// An id cut to ``maxIDBytes``.
    private static func cut(_ id: String) -> String { NotificationText.cut(id, maxBytes: maxIDBytes) }

    /// The text when it is not empty and at most `maxLength` characters long.
    private static func bounded(_ text: String, maxLength: Int) -> String? {
        text.isEmpty || text.count > maxLength ? nil : text
    }

    /// A JSON number that is a whole number of at most 15 digits (`1`, not
    /// `1.5`, not `true`), so that any use of it stays far from overflow.
    private static func integer(_ value: JSONValue) -> Int? {
        guard let whole = value.integerValue, whole > -1_000_000_000_000_000, whole < 1_000_000_000_000_000 else {
            return nil
        }
        return Int(whole)
    }

    private static func requiredString(_ b: [String: JSONValue], _ name: String) throws(PushError) -> String {
        guard let value = b[name] else { throw .missingMember("b." + name) }
        guard let text = value.stringValue, !text.isEmpty else { throw .invalidMember("b." + name) }
        return text
    }

    private static func optionalString(_ b: [String: JSONValue], _ name: String) throws(PushError) -> String? {
        guard let value = b[name], !value.isNull else { return nil }
        guard let text = value.stringValue, !text.isEmpty else { throw .invalidMember("b." + name) }
        return text
    }
}
