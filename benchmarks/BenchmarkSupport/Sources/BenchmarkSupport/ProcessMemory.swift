import Glibc

/// This process's memory figures, from `/proc/self/status`.
public enum ProcessMemory {
    /// `VmHWM`, the peak resident set, in MiB (0 when it cannot be read).
    ///
    /// It is also a floor of every child's `ru_maxrss` that `wait4`
    /// reports: a child made by `posix_spawn` starts in this process's
    /// memory, and its peak is the larger of that and its own.
    public static var peakMiB: Double {
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            guard text.hasPrefix("VmHWM:") else { continue }
            let digits = text.filter(\.isNumber)
            return (Double(digits) ?? 0) / 1024
        }
        return 0
    }
}
