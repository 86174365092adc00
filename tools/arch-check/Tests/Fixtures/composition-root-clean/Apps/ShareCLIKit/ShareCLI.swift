import ClientAssembly
import OutboxInterface

/// The program's library: it gets every service from ClientAssembly.
public enum ShareCLI {
    /// Runs the program.
    public static func run() { _ = ClientAssembly.outbox() }
}
