/// What a shell may offer when completing a value or a positional argument.
public enum CompletionHint: Sendable, Equatable {
    /// Nothing in particular.
    case none
    /// File names.
    case files
    /// One of these words.
    case choices([String])
    /// What the program itself says at the moment of completing: the
    /// script runs `PROGRAM __complete KIND` (``ShellCompletions/candidatesCommand``),
    /// which prints one candidate a line, optionally followed by a tab and
    /// a description. For what only the program knows, such as the recent
    /// targets or the ids of the shares that wait.
    case candidates(String)
}

/// One option of a command, declared once: the parser accepts it, shell
/// completions offer it, and the CLI reference lists it, all from this value.
public struct OptionDeclaration: Sendable, Equatable {
    /// How the option takes a value.
    public enum Value: Sendable, Equatable {
        /// A flag: no value.
        case none
        /// One value, named by the placeholder (`TARGET`); the last one given counts.
        case one(String)
        /// A value that may be given several times, each kept in order.
        case repeated(String)
    }

    /// The long name with its dashes (`--to`).
    public let name: String
    /// A short spelling (`-h`), if any.
    public let short: String?
    /// How it takes a value.
    public let value: Value
    /// One line for a person.
    public let summary: String
    /// What a shell may complete for its value.
    public let completion: CompletionHint

    /// Declares an option.
    /// - Parameters:
    ///   - name: the long name with its dashes.
    ///   - short: a short spelling, if any.
    ///   - value: how it takes a value.
    ///   - summary: one line for a person.
    ///   - completion: what a shell may complete for its value.
    public init(
        _ name: String, short: String? = nil, value: Value, summary: String, completion: CompletionHint = .none
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.summary = summary
        self.completion = completion
    }

    /// The option as a usage line spells it: `--to TARGET`, `--json`.
    public var usage: String {
        switch value {
        case .none: return name
        case .one(let placeholder), .repeated(let placeholder): return name + " " + placeholder
        }
    }

    /// `--help` and `-h`, which every command answers.
    public static let help = OptionDeclaration("--help", short: "-h", value: .none, summary: "show this command's help")
}

/// A declared option of any kind (``Flag``, ``ValueOption``, ``RepeatedOption``).
public protocol DeclaredOption: Sendable {
    /// The declaration.
    var declaration: OptionDeclaration { get }
}

/// A declared flag, read from a parsed command line by ``ParsedArguments/has(_:)-(Flag)``.
public struct Flag: DeclaredOption, Equatable {
    /// The declaration.
    public let declaration: OptionDeclaration

    /// Declares a flag.
    /// - Parameters:
    ///   - name: the long name with its dashes (`--json`).
    ///   - short: a short spelling, if any.
    ///   - summary: one line for a person.
    public init(_ name: String, short: String? = nil, _ summary: String) {
        declaration = OptionDeclaration(name, short: short, value: .none, summary: summary)
    }
}

/// A declared option with one value, read by ``ParsedArguments/value(_:)-(ValueOption)``.
public struct ValueOption: DeclaredOption, Equatable {
    /// The declaration.
    public let declaration: OptionDeclaration

    /// Declares an option with one value (the last one given counts).
    /// - Parameters:
    ///   - name: the long name with its dashes (`--to`).
    ///   - placeholder: what the value is (`TARGET`).
    ///   - summary: one line for a person.
    ///   - completion: what a shell may complete for the value.
    public init(_ name: String, _ placeholder: String, _ summary: String, completion: CompletionHint = .none) {
        declaration = OptionDeclaration(name, value: .one(placeholder), summary: summary, completion: completion)
    }
}

/// A declared option that may be repeated, read by ``ParsedArguments/values(_:)``.
public struct RepeatedOption: DeclaredOption, Equatable {
    /// The declaration.
    public let declaration: OptionDeclaration

    /// Declares a repeatable option.
    /// - Parameters:
    ///   - name: the long name with its dashes (`--text`).
    ///   - placeholder: what each value is (`T`).
    ///   - summary: one line for a person.
    public init(_ name: String, _ placeholder: String, _ summary: String) {
        declaration = OptionDeclaration(name, value: .repeated(placeholder), summary: summary)
    }
}

/// A command (or subcommand) as declared: its words, options and
/// arguments. The parser, `--help`'s list of options, the shell completions
/// and the CLI reference are made from it.
public struct CommandDeclaration: Sendable, Equatable {
    /// The word that names it (`send`).
    public let name: String
    /// One line for a person.
    public let summary: String
    /// Its options, in help order (`--help`/`-h` is implied).
    public let options: [OptionDeclaration]
    /// Its own subcommands (`inbox list`), each with its options.
    public let subcommands: [CommandDeclaration]
    /// The positional arguments as a usage line shows them (`[FILE|URL ...]`), if any.
    public let arguments: String?
    /// What a shell may complete for the positional arguments.
    public let argumentCompletion: CompletionHint

    /// Declares a command.
    /// - Parameters:
    ///   - name: the word that names it.
    ///   - summary: one line for a person.
    ///   - options: its options in help order.
    ///   - subcommands: its own subcommands.
    ///   - arguments: the positional arguments as a usage line shows them.
    ///   - argumentCompletion: what a shell may complete for them.
    public init(
        _ name: String, summary: String, options: [OptionDeclaration] = [], subcommands: [CommandDeclaration] = [],
        arguments: String? = nil, argumentCompletion: CompletionHint = .none
    ) {
        self.name = name
        self.summary = summary
        self.options = options
        self.subcommands = subcommands
        self.arguments = arguments
        self.argumentCompletion = argumentCompletion
    }

    /// Declares a command with typed options.
    /// - Parameters:
    ///   - name: the word that names it.
    ///   - summary: one line for a person.
    ///   - declared: its options in help order.
    ///   - subcommands: its own subcommands.
    ///   - arguments: the positional arguments as a usage line shows them.
    ///   - argumentCompletion: what a shell may complete for them.
    public init(
        _ name: String, summary: String, declared: [any DeclaredOption], subcommands: [CommandDeclaration] = [],
        arguments: String? = nil, argumentCompletion: CompletionHint = .none
    ) {
        self.init(
            name, summary: summary, options: declared.map(\.declaration), subcommands: subcommands,
            arguments: arguments, argumentCompletion: argumentCompletion)
    }

    /// Its options with `--help`.
    public var allOptions: [OptionDeclaration] { options + [.help] }

    /// The usage line after the program's name: `send [FILE|URL ...] [--text T] ...`.
    public var usage: String {
        ([name] + (arguments.map { [$0] } ?? []) + options.map { "[\($0.usage)]" }).joined(separator: " ")
    }
}

extension ParsedArguments {
    /// Parses `arguments` with exactly the options of a command's declaration.
    /// - Throws: a usage ``ProgramError`` as ``init(_:flags:options:)`` does.
    public init(_ arguments: [String], command: CommandDeclaration) throws {
        try self.init(arguments, declared: command.options)
    }

    /// Parses `arguments` with exactly the declared options (and `--help`, `-h`).
    /// - Throws: a usage ``ProgramError`` as ``init(_:flags:options:)`` does, naming the nearest declared option.
    public init(_ arguments: [String], declared: [OptionDeclaration]) throws {
        var flags: Set<String> = []
        var options: Set<String> = []
        for declaration in declared + [.help] {
            let names = [declaration.name] + (declaration.short.map { [$0] } ?? [])
            if declaration.value == .none { flags.formUnion(names) } else { options.formUnion(names) }
        }
        try self.init(arguments, flags: flags, options: options)
    }

    /// Whether `--help` or `-h` was given.
    public var asksForHelp: Bool { has("--help") || has("-h") }

    /// Whether a declared flag was given (in either spelling).
    public func has(_ flag: Flag) -> Bool {
        has(flag.declaration.name) || flag.declaration.short.map(has) == true
    }

    /// The last value of a declared option, or nil.
    public func value(_ option: ValueOption) -> String? { value(option.declaration.name) }

    /// The value of a declared option that must be present.
    /// - Throws: a usage ``ProgramError`` naming the option when it is missing.
    public func required(_ option: ValueOption) throws -> String { try required(option.declaration.name) }

    /// Every value of a repeatable option, in order.
    public func values(_ option: RepeatedOption) -> [String] { options[option.declaration.name] ?? [] }
}
