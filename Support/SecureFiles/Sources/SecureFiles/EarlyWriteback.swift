#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts the write-back of a file that is being written front to back and
/// will be fsynced at its end, a window at a time, so that the disk writes
/// while the writer goes on instead of all at once in the final `fsync`.
///
/// Without it a large file is written into the page cache at memory speed
/// and then flushed in one go: the writer waits for the whole file at
/// `fsync`, and several such files (an upload's parts, each fsynced before
/// it is acknowledged) each wait for their own. With it the final `fsync`
/// finds most of the file already on its way to the disk.
///
/// This is a hint and changes nothing about durability: only the `fsync`
/// the caller still makes promises anything. On Linux it is
/// `sync_file_range(SYNC_FILE_RANGE_WRITE)`, which starts the write of the
/// dirty pages of a range and does not wait for it; where the call does not
/// exist (other systems) the type does nothing.
public struct EarlyWriteback {
    /// The write-back is started each time this many more bytes were written.
    public let window: Int64
    /// Where the next window starts: bytes before it were handed to the disk.
    private var started: Int64 = 0

    /// A write-back for one file written from its start.
    /// - Parameter window: bytes per started write (at least 64 KiB;
    ///   smaller values count as 64 KiB).
    public init(window: Int64) {
        self.window = max(window, 64 << 10)
    }

    /// Says that the file now holds `written` bytes from its start; starts
    /// the write-back of the bytes not yet handed over once they are a
    /// whole window. Errors are ignored: the final `fsync` reports them.
    /// - Parameters:
    ///   - fd: the file's descriptor.
    ///   - written: how many bytes from offset 0 are written so far.
    public mutating func wrote(_ fd: Int32, upTo written: Int64) {
        guard written - started >= window else { return }
        if let start = Self.syncFileRange {
            _ = start(fd, off_t(started), off_t(written - started), Self.syncFileRangeWrite)
        }
        started = written
    }

    /// Whether this system starts write-backs at all (Linux with glibc);
    /// elsewhere ``wrote(_:upTo:)`` only counts.
    public static var isAvailable: Bool { syncFileRange != nil }

    /// `SYNC_FILE_RANGE_WRITE` (2 in `<fcntl.h>`): start the write of dirty
    /// pages in the range, do not wait for it.
    private static let syncFileRangeWrite: UInt32 = 2

    private typealias SyncFileRange = @convention(c) (Int32, off_t, off_t, UInt32) -> Int32

    /// glibc's `sync_file_range`, looked up once. Swift's Glibc module
    /// leaves it out (it is declared only under `_GNU_SOURCE`), so it is
    /// found by name in the C library the process already has loaded.
    private static let syncFileRange: SyncFileRange? = {
        #if os(Linux)
            // RTLD_DEFAULT: search the global symbols of the process.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }
            return unsafeBitCast(symbol, to: SyncFileRange.self)
        #else
            return nil
        #endif
    }()
}
