/// Sizes for a person: binary units with at most one decimal, so a message
/// can show `190.7 MiB` beside the exact number of bytes.
public enum ByteCount {
    /// `512 B`, `1.5 KiB`, `190.7 MiB`, `100 MiB` (no `.0` on whole numbers).
    /// - Parameter bytes: a size in bytes.
    /// - Returns: the size in the largest binary unit that keeps it at 1 or more.
    public static func human(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var unit = 0
        var scale: Int64 = 1
        while unit < units.count - 1, bytes / scale >= 1024 {
            scale *= 1024
            unit += 1
        }
        guard unit > 0 else { return "\(bytes) B" }
        // Tenths, rounded half up, in integers: no locale, no binary float surprises.
        let tenths = (bytes * 10 + scale / 2) / scale
        return tenths % 10 == 0 ? "\(tenths / 10) \(units[unit])" : "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// `190.7 MiB (200000000 bytes)`: the size for a person and the exact count.
    /// - Parameter bytes: a size in bytes.
    public static func humanWithBytes(_ bytes: Int64) -> String {
        "\(human(bytes)) (\(bytes) bytes)"
    }
}
