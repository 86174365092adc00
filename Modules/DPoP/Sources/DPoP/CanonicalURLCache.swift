import ShareKitCore
import ShareKitDPoPInterface
import Synchronization

/// The `htu` forms a signer computed recently, by request URL, each as the
/// JSON string a proof's payload carries.
///
/// A client calls the same few endpoints over and over; parsing and
/// normalizing the URL each time (about 1 µs) and escaping it for JSON are
/// a noticeable share of a proof. The cache is small and bounded: when full
/// it is emptied.
final class CanonicalURLCache: Sendable {
    /// The most URLs kept.
    static let capacity = 64
    /// URLs longer than this are not cached, so the cache stays small.
    static let maxCachedLength = 512

    private let entries = Mutex<[String: [UInt8]]>([:])

    /// The canonical `htu` of a URL as a JSON string value, quotes included.
    /// - Parameter url: the request URL.
    /// - Returns: UTF-8 JSON, e.g. `"https://server.example/api/v1/me"`.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/invalidURL(_:)`` when it cannot be used.
    func canonicalJSON(_ url: String) throws(DPoPError) -> [UInt8] {
        if let hit = entries.withLock({ $0[url] }) { return hit }
        var json = JSONWriter(capacity: url.utf8.count + 8)
        json.string(try HTTPTargetURI(url).canonical)
        let bytes = json.bytes
        if url.utf8.count <= Self.maxCachedLength {
            entries.withLock { cache in
                if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
                cache[url] = bytes
            }
        }
        return bytes
    }
}
