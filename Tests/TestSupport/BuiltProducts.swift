public import Foundation
import ShareKitSystemTesting

/// Finds the programs this package builds (the apps and `ShareTestHelper`),
/// so tests run them as separate processes the way a person runs them.
public enum BuiltProducts {
    /// The build directory that holds the test binary and the executables.
    public static var directory: String {
        if let override = ProcessInfo.processInfo.environment["SHAREKIT_BUILD_DIR"] { return override }
        // The test runner lives in the build directory (…/debug/ShareKitPackageTests.xctest);
        // executables built for the tests sit next to it.
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("ShareTestHelper").path) {
                return dir.path
            }
            dir = dir.deletingLastPathComponent()
        }
        return exe.deletingLastPathComponent().path
    }

    /// The path of a built executable.
    public static func path(_ name: String) -> String { directory + "/" + name }
}
