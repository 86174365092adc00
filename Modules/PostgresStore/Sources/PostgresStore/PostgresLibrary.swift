import CShareKitPostgres

/// Facts about the libpq this process linked.
public enum PostgresLibrary {
    /// The version of the linked libpq, e.g. `15.18`, for `--version` and bug reports.
    public static var version: String {
        let number = PQlibVersion()
        // Since PostgreSQL 10 the number is major * 10000 + minor.
        return number >= 100_000 ? "\(number / 10000).\(number % 10000)" : "\(number / 10000).\(number / 100 % 100)"
    }
}
