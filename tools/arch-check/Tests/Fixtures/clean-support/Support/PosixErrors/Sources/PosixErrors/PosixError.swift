#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call.
public struct PosixError: Error {}
