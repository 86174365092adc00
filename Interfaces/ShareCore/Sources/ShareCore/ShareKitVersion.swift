/// The toolkit's version, shown by every program's `--version`.
public enum ShareKitVersion {
    /// Semantic version of this source tree: the newest release of CHANGELOG.md.
    public static let current = "0.2.0"
}
