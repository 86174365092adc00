import CShareKitMicroHTTPD
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import Synchronization

/// The bytes of large in-memory answers (``ShareKitHTTPServerInterface/HTTPResponseBody/bytes(_:)``
/// over ``threshold``) that libmicrohttpd holds, from queueing until it is
/// done with them: sent whole, or the connection closed. A client that asks
/// for large answers and never reads them would otherwise make the server
/// hold one answer per connection, however many connections it opens.
///
/// Such an answer is handed to libmicrohttpd without a copy: libmicrohttpd
/// reads it through ``HeldAnswer``, block by block into its own buffer, and
/// calls the free callback when it is done, which releases the bytes here.
final class ResponseMemory: Sendable {
    /// Answers of this size or smaller are not counted and always sent:
    /// problems, tokens and the like must go out whatever large answers are
    /// held, and they cost at most this much per connection.
    static let threshold = 64 * 1024

    /// The block libmicrohttpd reads a held answer in.
    static let blockSize = 32 * 1024

    private let limit: Int
    private let current = Atomic<Int>(0)

    /// The `503` problem for a large answer past the limit.
    static let busyProblem = HTTPProblem(
        status: .serviceUnavailable, code: "server_busy", title: "Service Unavailable",
        detail: "The server holds too many answers clients have not taken yet; retry after the time in Retry-After.")

    /// Makes the count of one daemon.
    /// - Parameter limit: ``ShareKitHTTPServerInterface/HTTPServerConfiguration/maxBufferedResponseBytes``, 0 for none.
    init(limit: Int) {
        self.limit = limit
    }

    /// The bytes held now.
    var held: Int { current.load(ordering: .relaxed) }

    /// The limit, 0 for none.
    var maximum: Int { limit }

    /// Counts an answer of `count` bytes, unless that would pass the limit.
    /// - Parameters:
    ///   - count: the answer's size.
    ///   - always: count it even past the limit (an answer that must be sent).
    /// - Returns: whether it was counted.
    func reserve(_ count: Int, always: Bool) -> Bool {
        if always || limit == 0 {
            current.add(count, ordering: .relaxed)
            return true
        }
        var seen = current.load(ordering: .relaxed)
        while true {
            guard seen + count <= limit else { return false }
            let (exchanged, original) = current.compareExchange(
                expected: seen, desired: seen + count, ordering: .relaxed)
            if exchanged { return true }
            seen = original
        }
    }

    /// Releases the bytes of an answer libmicrohttpd is done with.
    /// - Parameter count: the answer's size, as reserved.
    func release(_ count: Int) {
        current.subtract(count, ordering: .relaxed)
    }
}

/// A counted answer while libmicrohttpd holds it: the bytes (not copied)
/// and what to release when libmicrohttpd frees the response. Retained from
/// the response's creation to its free callback.
final class HeldAnswer {
    private let bytes: [UInt8]
    private let memory: ResponseMemory

    /// Takes an answer that was counted in `memory`.
    /// - Parameters:
    ///   - bytes: the body.
    ///   - memory: where its size was reserved.
    init(_ bytes: [UInt8], memory: ResponseMemory) {
        self.bytes = bytes
        self.memory = memory
    }

    /// A libmicrohttpd response reading these bytes; nil when libmicrohttpd
    /// could not allocate one (the bytes are then released at once).
    func response() -> OpaquePointer? {
        let context = Unmanaged.passRetained(self).toOpaque()
        guard
            let made = MHD_create_response_from_callback(
                UInt64(bytes.count), ResponseMemory.blockSize, Self.reader, context, Self.free)
        else {
            Unmanaged<HeldAnswer>.fromOpaque(context).release()
            memory.release(bytes.count)
            return nil
        }
        return made
    }

    /// Copies the next block into libmicrohttpd's buffer (on the connection's thread).
    private static let reader: MHD_ContentReaderCallback = { context, position, buffer, maximum in
        guard let context, let buffer else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
        let held = Unmanaged<HeldAnswer>.fromOpaque(context).takeUnretainedValue()
        let start = Int(clamping: position)
        guard start < held.bytes.count else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
        let count = min(maximum, held.bytes.count - start)
        held.bytes.withUnsafeBytes { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + start, byteCount: count)
        }
        return count
    }

    /// libmicrohttpd is done with the response: release its bytes.
    private static let free: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let held = Unmanaged<HeldAnswer>.fromOpaque(context).takeRetainedValue()
        held.memory.release(held.bytes.count)
    }
}
