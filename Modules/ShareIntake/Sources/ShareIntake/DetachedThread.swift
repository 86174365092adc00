#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts `body` on a new detached POSIX thread: for blocking work that
/// must not wait for a pool's worker (a load that blocks as long as its
/// source does, the hashing a load waits for). A plain pthread: nothing of
/// Foundation's thread machinery is needed for a function to run and end.
/// - Returns: false when no thread could be made (then `body` did not run).
@discardableResult
func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Glibc)
        var thread: pthread_t = 0
    #else
        var thread: pthread_t? = nil
    #endif
    let started = pthread_create(
        &thread, nil,
        { context in
            guard let context else { return nil }
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            box.body()
            return nil
        }, box)
    if started != 0 {
        Unmanaged<Box>.fromOpaque(box).release()
        return false
    }
    // Nobody joins it: its resources go when it returns.
    #if canImport(Glibc)
        pthread_detach(thread)
    #else
        if let thread { pthread_detach(thread) }
    #endif
    return true
}
