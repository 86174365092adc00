import ShareKitSystemTesting

/// Runs Python 3 with the `cryptography` package, the independent ECDSA
/// implementation the tests compare against.
enum PythonCryptography {
    /// Whether `python3` with `cryptography` can be run here; when not, the
    /// tests that need it are skipped and the reason is printed once.
    static let isAvailable: Bool = {
        let probe = try? runProcess("/usr/bin/env", ["python3", "-c", "import cryptography"])
        if probe?.status == 0 { return true }
        print("skipping independent ECDSA checks: python3 with the 'cryptography' package is not available")
        return false
    }()

    /// Runs a script with arguments.
    /// - Parameters:
    ///   - script: Python source.
    ///   - arguments: `sys.argv[1...]`.
    /// - Returns: the finished process.
    /// - Throws: when Python cannot be started.
    static func run(_ script: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/env", ["python3", "-c", script] + arguments)
    }
}
