/// Swift module names of targets and the modules every target may import.
public enum ModuleName {
    /// Modules of the toolchain and the platform, which need no declared
    /// dependency. `PackageDescription` is listed for completeness:
    /// manifests are not scanned.
    public static let toolchain: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin", "Android", "WinSDK", "Synchronization",
        "XCTest", "Testing", "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Observation",
        "Distributed", "os", "CoreFoundation", "PackageDescription",
    ]

    /// Whether `module` is a toolchain or platform module.
    public static func isToolchain(_ module: String) -> Bool {
        toolchain.contains(module)
    }

    /// The module name SwiftPM derives from a target name: characters that
    /// may not appear in an identifier become `_`, and a leading digit gets
    /// a `_` in front (`arch-check` builds module `arch_check`).
    public static func c99Name(_ name: String) -> String {
        var result = String(
            name.unicodeScalars.map { scalar -> Character in
                let isValid =
                    scalar == "_"
                    || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                    || (!scalar.isASCII && scalar.properties.isXIDContinue)
                return isValid ? Character(scalar) : "_"
            })
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) {
            result = "_" + result
        }
        return result
    }
}
