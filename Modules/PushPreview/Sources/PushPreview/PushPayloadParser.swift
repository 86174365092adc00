import Foundation
public import PushPreviewInterface

/// Reads a push payload (PROTOCOL.md "Push"): strict about what the
/// notifier needs, tolerant of everything else.
///
/// Unknown members are ignored, so a server may add some without breaking
/// older notifiers; a missing or mistyped required member (`aps`, `b`,
/// `b.v`, `b.nid`, `b.k`, `b.i`) is an error. A `b.v` other than 1 is not an
/// error: its ids are not read (their meaning may have changed) and the
/// notifier shows the push as sent.
public enum PushPayloadParser {
    /// Parses a payload.
    /// - Parameter bytes: the payload's JSON.
    /// - Returns: the payload.
    /// - Throws: ``PushPayloadError`` when it is not a JSON object or a required member is missing or mistyped.
    public static func parse(_ bytes: [UInt8]) throws(PushPayloadError) -> PushPayload {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw .notJSON
        }
        guard let apsValue = object["aps"] else { throw .missingMember("aps") }
        guard let aps = apsValue as? [String: Any] else { throw .invalidMember("aps") }
        guard let bValue = object["b"] else { throw .missingMember("b") }
        guard let b = bValue as? [String: Any] else { throw .invalidMember("b") }
        guard let versionValue = b["v"] else { throw .missingMember("b.v") }
        guard let version = integer(versionValue) else { throw .invalidMember("b.v") }
        let alert = try readAlert(aps)
        guard version == 1 else { return PushPayload(version: version, ids: nil, alert: alert) }
        let ids = PushIDs(
            nid: try requiredString(b, "nid"), kind: try requiredString(b, "k"), instance: try requiredString(b, "i"),
            thread: try optionalString(b, "t"), message: try optionalString(b, "m"))
        return PushPayload(version: version, ids: ids, alert: alert)
    }

    private static func readAlert(_ aps: [String: Any]) throws(PushPayloadError) -> PushAlert {
        var alert = PushAlert()
        switch aps["alert"] {
        case nil: break
        case let text as String: alert.body = text
        case let dictionary as [String: Any]:
            alert.title = dictionary["title"] as? String
            alert.body = dictionary["body"] as? String
            alert.titleKey = dictionary["title-loc-key"] as? String
            alert.bodyKey = dictionary["loc-key"] as? String
        default: throw .invalidMember("aps.alert")
        }
        alert.threadID = aps["thread-id"] as? String
        alert.badge = aps["badge"].flatMap(integer)
        alert.sound = aps["sound"] as? String
        return alert
    }

    /// A JSON number that is a whole number (`1`, not `1.5`, not `true`).
    private static func integer(_ value: Any) -> Int? {
        // A JSON boolean is an NSNumber of type "c" here; `true` is not a version.
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    private static func requiredString(_ b: [String: Any], _ name: String) throws(PushPayloadError) -> String {
        guard let value = b[name] else { throw .missingMember("b." + name) }
        guard let text = value as? String, !text.isEmpty else { throw .invalidMember("b." + name) }
        return text
    }

    private static func optionalString(_ b: [String: Any], _ name: String) throws(PushPayloadError) -> String? {
        guard let value = b[name], !(value is NSNull) else { return nil }
        guard let text = value as? String, !text.isEmpty else { throw .invalidMember("b." + name) }
        return text
    }
}
