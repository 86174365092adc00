/// Folders and files a share never reads as an attachment: where keys,
/// passwords and tokens live. A share sends only what the person handed
/// over, and nobody hands over their SSH key on purpose: a file there
/// arrives through a trick (a list of links that names it, a symbolic link
/// called `cat.jpg`), so intake refuses it with
/// ``IntakeError/protectedFile(item:place:)`` before a byte is read.
///
/// A place is an absolute path; a file is in it when its real path (the
/// file that was opened, symbolic links resolved) is the place or lies
/// below it. The composition root adds ShareKit's own keychain, container
/// and state folders to ``usualSecrets(environment:)``.
public struct ProtectedPlaces: Hashable, Sendable {
    /// The places, absolute paths without a trailing `/`.
    public private(set) var paths: [String]

    /// Makes a list of places; relative and empty paths are left out (they
    /// would name a place relative to wherever the program runs).
    /// - Parameter paths: absolute paths of folders or files.
    public init(_ paths: [String]) {
        self.paths = []
        add(paths)
    }

    /// Adds places, leaving out relative and empty paths and repeats.
    /// - Parameter more: absolute paths of folders or files.
    public mutating func add(_ more: [String]) {
        for path in more {
            let trimmed = Self.trimmed(path)
            guard trimmed.hasPrefix("/"), !paths.contains(trimmed) else { continue }
            paths.append(trimmed)
        }
    }

    /// The place that holds `path`, or nil when it is in none.
    /// - Parameter path: an absolute path, symbolic links already resolved.
    /// - Returns: the place, as it is listed.
    public func place(containing path: String) -> String? {
        paths.first { Self.path(path, isIn: $0) }
    }

    /// Whether `path` is `place` or lies below it, component by component
    /// (`/home/a/.sshkeys` is not in `/home/a/.ssh`).
    /// - Parameters:
    ///   - path: an absolute path.
    ///   - place: an absolute path without a trailing `/`.
    public static func path(_ path: String, isIn place: String) -> Bool {
        if place == "/" { return path.hasPrefix("/") }
        return path == place || path.hasPrefix(place + "/")
    }

    /// Where other programs keep secrets, for the home folder and the XDG
    /// folders of `environment`: SSH and GnuPG keys, cloud and cluster
    /// credentials (AWS, Azure, Google Cloud, Kubernetes, Docker), password
    /// stores and keyrings, the credentials of git, `gh`, `netrc`, package
    /// registries and databases, browser profiles (cookies, saved
    /// passwords); and `/proc` (a process's environment and memory) and the
    /// system's SSH host keys and password hashes.
    /// - Parameter environment: `HOME`, `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `GNUPGHOME`, `PASSWORD_STORE_DIR`.
    /// - Returns: the places (nothing under a home when `HOME` is not absolute).
    public static func usualSecrets(environment: [String: String]) -> ProtectedPlaces {
        var places = ProtectedPlaces(["/proc", "/etc/ssh", "/etc/shadow", "/etc/gshadow", "/etc/sudoers.d"])
        if let home = environment["HOME"].map(trimmed), home.hasPrefix("/"), home != "/" {
            places.add(homeSecrets.map { home + "/" + $0 })
        }
        if let config = environment["XDG_CONFIG_HOME"].map(trimmed), config.hasPrefix("/") {
            places.add(configSecrets.map { config + "/" + $0 })
        }
        if let data = environment["XDG_DATA_HOME"].map(trimmed), data.hasPrefix("/") {
            places.add(dataSecrets.map { data + "/" + $0 })
        }
        places.add([environment["GNUPGHOME"], environment["PASSWORD_STORE_DIR"]].compactMap { $0 })
        return places
    }

    /// Below `$XDG_CONFIG_HOME` (`~/.config` by default).
    static let configSecrets = [
        "gh", "hub", "gcloud", "git/credentials", "rclone", "google-chrome", "chromium", "BraveSoftware",
        "sharekit",
    ]

    /// Below `$XDG_DATA_HOME` (`~/.local/share` by default).
    static let dataSecrets = ["keyrings", "sharekit"]

    /// Below the home folder.
    static let homeSecrets =
        [
            ".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".netrc", ".authinfo", ".authinfo.gpg",
            ".git-credentials", ".pgpass", ".my.cnf", ".password-store", ".pki", ".mozilla", ".thunderbird",
            ".vault-token", ".npmrc", ".pypirc", ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials",
            ".m2/settings-security.xml", ".local/state/sharekit",
        ] + configSecrets.map { ".config/" + $0 } + dataSecrets.map { ".local/share/" + $0 }

    /// The path without trailing slashes (`/` stays `/`).
    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
