import Foundation

/// Reads this process's memory figures from `/proc/self/status`.
enum Memory {
    /// A `kB` field of `/proc/self/status` (`VmHWM`, `VmRSS`), in KiB.
    static func kilobytes(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            // "VmHWM:	   45312 kB"
            if let value = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap({ Int($0) }).first {
                return value
            }
        }
        return -1
    }
}
