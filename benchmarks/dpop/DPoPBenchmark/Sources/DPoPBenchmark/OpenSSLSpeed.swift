import Foundation

/// Runs `openssl speed -seconds N ecdsap256` and reads its rates.
enum OpenSSLSpeed {
    /// Why the rates could not be obtained.
    enum Failure: Error, CustomStringConvertible {
        case notRunnable(String)
        case unexpectedOutput(String)

        var description: String {
            switch self {
            case .notRunnable(let why): return "cannot run openssl speed: \(why)"
            case .unexpectedOutput(let output): return "no 'nistp256' line in openssl speed output:\n\(output)"
            }
        }
    }

    /// Signs and verifications per second of OpenSSL's ECDSA P-256 on one core.
    /// - Parameter seconds: the `-seconds` of each of openssl's measurements.
    /// - Returns: the rates.
    /// - Throws: ``Failure`` when openssl cannot be run or its output is not understood.
    static func ecdsaP256(seconds: Int) throws -> (sign: Double, verify: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "speed", "-seconds", String(seconds), "ecdsap256"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure.notRunnable("\(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure.notRunnable("exit status \(process.terminationStatus)")
        }
        // " 256 bits ecdsa (nistp256)   0.0000s   0.0001s  40769.5  13053.0"
        for line in text.split(separator: "\n") where line.contains("(nistp256)") {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            if numbers.count >= 3, let sign = numbers.dropLast().last, let verify = numbers.last {
                return (sign, verify)
            }
        }
        throw Failure.unexpectedOutput(text)
    }
}
