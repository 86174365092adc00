/// The helper's commands by name. Add a command by adding an entry here and
/// a file with its function.
nonisolated(unsafe) let helperCommands: [String: ([String]) throws -> Void] = [
    "echo": { args in print(args.joined(separator: " ")) },
    "sql-insert": sqlInsertCommand,
    "sql-hold-transaction": sqlHoldTransactionCommand,
    "sql-commit-loop": sqlCommitLoopCommand,
    "state-increment": stateIncrementCommand,
    "lock-hold": lockHoldCommand,
    "lock-counter": lockCounterCommand,
    "keychain-hammer": keychainHammerCommand,
    "keychain-backend": keychainBackendCommand,
    "secret-service-roundtrip": secretServiceRoundTripCommand,
    "secret-service-session": secretServiceSessionCommand,
    "session-token": sessionTokenCommand,
    "upload": uploadCommand,
    "inbox-write": inboxWriteCommand,
    "inbox-lock": inboxLockCommand,
    "outbox-drain": outboxDrainCommand,
    "outbox-takeover": outboxTakeoverCommand,
]
