import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A desktop for the sheet's tests: an X server (Xvfb, on a display it
/// chooses itself), a private session bus and the accessibility bus that
/// the session bus starts on demand. One for a whole suite (``DesktopTrait``):
/// starting them costs more than most tests.
final class DesktopSession: Sendable {
    /// The desktop of the running suite.
    @TaskLocal static var current: DesktopSession?

    let home: TemporaryDirectory
    /// `:N`.
    let display: String
    let sessionBus: String
    let accessibilityBus: String
    private let xvfb: HelperProcess
    private let bus: HelperProcess

    init() throws {
        home = try TemporaryDirectory(prefix: "share-sheet-desktop")
        // The accessibility bus's socket goes into XDG_RUNTIME_DIR (0700,
        // as the specification asks), not into ~/.cache where another
        // desktop of the same user on the same display number would meet it.
        let runtime = home.file("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        xvfb = try HelperProcess(
            executable: "/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        guard let number = xvfb.waitForLine(limit: .seconds(30), where: { Int($0) != nil }) else {
            xvfb.kill(SIGKILL)
            throw ServerProcessError("Xvfb did not start")
        }
        display = ":" + number
        let environment = ["XDG_RUNTIME_DIR": runtime, "HOME": home.path, "DISPLAY": ":" + number]
        do {
            bus = try HelperProcess(
                executable: "/usr/bin/dbus-daemon", ["--session", "--print-address=1", "--nofork"],
                environment: environment)
        } catch {
            xvfb.kill(SIGKILL)
            _ = xvfb.finish()
            throw error
        }
        guard let address = bus.waitForLine(limit: .seconds(30), where: { $0.hasPrefix("unix:") }) else {
            Self.stop([bus, xvfb])
            throw ServerProcessError("dbus-daemon did not start")
        }
        sessionBus = address
        // Asking for the accessibility bus starts it (at-spi-bus-launcher,
        // activated by the session bus, ends with it). Its address is given
        // to the tree reader: libatspi would otherwise look for it on the
        // X root window first.
        let asked = try runProcess(
            "/usr/bin/dbus-send",
            [
                "--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus",
                "org.a11y.Bus.GetAddress",
            ], environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 })
        accessibilityBus = asked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard asked.status == 0, accessibilityBus.hasPrefix("unix:") else {
            Self.stop([bus, xvfb])
            throw ServerProcessError("no accessibility bus: \(asked.stderr)")
        }
        // Screen readers turn this on: GTK then keeps its accessible tree current.
        _ = try runProcess(
            "/usr/bin/dbus-send",
            [
                "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
                "org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status", "string:IsEnabled",
                "variant:boolean:true",
            ], environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 })
    }

    /// What a program on this desktop needs in its environment.
    var environment: [String: String] {
        [
            "DISPLAY": display, "WAYLAND_DISPLAY": "", "GDK_BACKEND": "x11", "DBUS_SESSION_BUS_ADDRESS": sessionBus,
            "AT_SPI_BUS_ADDRESS": accessibilityBus, "XDG_RUNTIME_DIR": home.file("runtime"),
            // No GL under Xvfb: GTK draws with cairo at once instead of trying first.
            "GSK_RENDERER": "cairo",
        ]
    }

    func stop() {
        Self.stop([bus, xvfb])
        home.remove()
    }

    private static func stop(_ processes: [HelperProcess]) {
        for process in processes {
            process.kill(SIGTERM)
            _ = process.finish()
        }
    }
}

/// Runs a suite on one ``DesktopSession``, stopped when the suite ends.
struct DesktopTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let desktop = try DesktopSession()
        defer { desktop.stop() }
        try await DesktopSession.$current.withValue(desktop) { try await function() }
    }
}

extension Trait where Self == DesktopTrait {
    /// An X server, a session bus and the accessibility bus for the whole suite.
    static var desktop: Self { DesktopTrait() }
}
