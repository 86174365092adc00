import Foundation
import ShareKitSystemTesting

/// This process's memory as the kernel counts it (`/proc/self/status`).
enum ProcessMemory {
    /// Resident set size now, in bytes.
    static var residentBytes: Int { field("VmRSS") }

    /// Peak resident set size (high-water mark) in bytes.
    static var peakResidentBytes: Int { field("VmHWM") }

    /// Resets the high-water mark to the current resident size
    /// (`echo 5 > /proc/self/clear_refs`).
    /// - Returns: false when the kernel does not allow it.
    @discardableResult
    static func resetPeak() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    private static func field(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0"
            return (Int(digits.trimmingCharacters(in: .whitespaces)) ?? 0) * 1024
        }
        return 0
    }
}
