/// The toolkit's version, shown by every program's `--version`.
public enum ShareKitVersion {
    /// Semantic version of this source tree.
    public static let current = "0.1.0"
}
