import ShareKitIntakeInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Refuses a file opened for a share when it lies in one of the
/// ``ProtectedPlaces``. The file is judged by what was opened (the
/// descriptor's path in `/proc/self/fd`, every symbolic link resolved), so
/// neither a symbolic link named `cat.jpg` nor `..` in a path nor a path
/// swapped after the open leads past it; the places are resolved too, so a
/// `~/.ssh` that is itself a link to another disk is still `~/.ssh`.
struct ProtectedPlaceCheck: Sendable {
    /// Each place by its real path, with the path the message names.
    private let places: [(real: String, shown: String)]

    /// Resolves the places as they are now (a place that does not exist
    /// is kept as written: a file cannot be in it through a link then).
    init(_ protected: ProtectedPlaces) {
        var places: [(real: String, shown: String)] = []
        for path in protected.paths {
            places.append((path, path))
            if let real = Self.realPath(path), real != path { places.append((real, path)) }
        }
        self.places = places
    }

    /// Throws when the open file lies in a protected place.
    /// - Parameters:
    ///   - descriptor: the open file.
    ///   - path: the path it was opened by, for systems without `/proc`
    ///     (nil for standard input).
    ///   - item: how errors name the item.
    /// - Throws: ``IntakeError/protectedFile(item:place:)``.
    func check(descriptor: Int32, path: String?, item: String) throws(IntakeError) {
        guard !places.isEmpty else { return }
        // A pipe or socket has no path (`pipe:[123]`): it is in no place.
        guard let real = Self.openedPath(descriptor) ?? path.flatMap(Self.realPath), real.hasPrefix("/") else { return }
        guard let place = places.first(where: { ProtectedPlaces.path(real, isIn: $0.real) }) else { return }
        throw .protectedFile(item: item, place: place.shown)
    }

    /// What `/proc/self/fd/N` points to: the real path of the open file.
    private static func openedPath(_ descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `realpath(3)` of a path; nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
