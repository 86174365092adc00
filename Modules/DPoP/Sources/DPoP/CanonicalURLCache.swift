import DPoPInterface
import Synchronization

/// The `htu` forms a signer computed recently, by request URL.
///
/// A client calls the same few endpoints over and over; parsing and
/// normalizing the URL each time (about 1 µs) is a noticeable share of a
/// proof. The cache is small and bounded: when full it is emptied.
final class CanonicalURLCache: Sendable {
    /// The most URLs kept.
    static let capacity = 64
    /// URLs longer than this are not cached, so the cache stays small.
    static let maxCachedLength = 512

    private let entries = Mutex<[String: String]>([:])

    /// The canonical `htu` of a URL.
    /// - Parameter url: the request URL.
    /// - Returns: its canonical form.
    /// - Throws: ``DPoPInterface/DPoPError/invalidURL(_:)`` when it cannot be used.
    func canonical(_ url: String) throws(DPoPError) -> String {
        if let hit = entries.withLock({ $0[url] }) { return hit }
        let canonical = try HTTPTargetURI(url).canonical
        if url.utf8.count <= Self.maxCachedLength {
            entries.withLock { cache in
                if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
                cache[url] = canonical
            }
        }
        return canonical
    }
}
