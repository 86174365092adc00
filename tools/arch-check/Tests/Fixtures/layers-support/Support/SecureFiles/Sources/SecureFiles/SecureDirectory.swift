#if canImport(Glibc)
    import Glibc
#endif
import Storage

/// A directory that keeps its files in a store.
public final class SecureDirectory {
    let store = Store()
}
