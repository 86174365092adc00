import Glibc

/// What keeps share-daemon's memory flat: glibc's allocator keeps memory a
/// burst of work freed (a thousand shares taken over and sent) for later
/// reuse, in one arena per thread that allocated, so a long-running daemon's
/// resident set creeps up with every burst although its live data does not.
/// The daemon limits the arenas at start and hands freed memory back to the
/// system when a pass that did work is over.
///
/// `mallopt` and `malloc_trim` are looked up at run time: `malloc.h` is not
/// part of the C library's Swift module. Without them (another C library)
/// both are no-ops.
enum MemoryRelease {
    /// `M_ARENA_MAX` of `malloc.h`.
    private static let arenaMaximumParameter: Int32 = -8
    /// The arenas allowed: the daemon's threads mostly wait; two arenas keep
    /// the few that run at once from contending on one lock.
    static let arenas: Int32 = 2

    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = symbol("mallopt")
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = symbol("malloc_trim")

    /// Limits the allocator's arenas; call at start, before threads allocate.
    static func limitArenas() {
        _ = mallopt?(arenaMaximumParameter, arenas)
    }

    /// Returns the free memory of every arena to the system (`malloc_trim(0)`).
    static func returnFreedMemory() {
        _ = mallocTrim?(0)
    }

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let found = dlsym(handle, name) else { return nil }
        return unsafeBitCast(found, to: T.self)
    }
}
