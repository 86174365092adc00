import ClientAssembly
import Outbox
import OutboxInterface

/// The program's library: it builds the outbox itself instead of asking ClientAssembly.
public enum ShareCLI {
    /// Runs the program.
    public static func run() { _ = SQLiteOutbox() }
}
