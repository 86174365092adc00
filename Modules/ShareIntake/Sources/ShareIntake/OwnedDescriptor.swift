#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor, closed when the last reference goes (unless it
/// was borrowed, like standard input), so an early `throw` leaks nothing.
final class OwnedDescriptor {
    let fd: Int32
    private let owned: Bool

    init(fd: Int32, owned: Bool = true) {
        self.fd = fd
        self.owned = owned
    }

    deinit { if owned { close(fd) } }

    /// The status of exactly what was opened; nil with `errno` set on failure.
    func status() -> stat? {
        var info = stat()
        return fstat(fd, &info) == 0 ? info : nil
    }
}

/// `strerror` as a String, for error reasons (never file contents).
func systemMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}
