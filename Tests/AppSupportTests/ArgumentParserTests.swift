import ShareKitAppSupport
import Testing

@Suite("command-line parsing")
struct ArgumentParserTests {
    @Test("flags, options in both spellings, positionals and --")
    func parses() throws {
        let p = try ParsedArguments(
            ["a.txt", "--json", "--to", "thread:t1", "--comment=hi there", "--", "--literal"],
            flags: ["--json"], options: ["--to", "--comment"])
        #expect(p.has("--json"))
        #expect(p.value("--to") == "thread:t1")
        #expect(p.value("--comment") == "hi there")
        #expect(p.positionals == ["a.txt", "--literal"])
    }

    @Test(
        "errors name the culprit",
        arguments: [
            (["--nope"], "unknown option --nope"), (["--to"], "--to needs a value"),
            (["--json=1"], "--json takes no value"),
        ])
    func errors(args: [String], message: String) {
        #expect(throws: ProgramError.usage(message)) { try ParsedArguments(args, flags: ["--json"], options: ["--to"]) }
    }

    @Test("--verbose, or SHAREKIT_VERBOSE=1 without it (the secrets scan's most verbose run); other values are off")
    func verbose() throws {
        let flag = try ParsedArguments(["--verbose"], flags: ["--verbose"], options: [])
        let none = try ParsedArguments([], flags: ["--verbose"], options: [])
        #expect(flag.verbose(environment: [:]))
        #expect(none.verbose(environment: ["SHAREKIT_VERBOSE": "1"]))
        #expect(!none.verbose(environment: [:]))
        #expect(!none.verbose(environment: ["SHAREKIT_VERBOSE": "0"]))
    }

    @Test("required options say which one is missing")
    func required() throws {
        let p = try ParsedArguments([], flags: [], options: ["--db"])
        #expect(throws: ProgramError.usage("--db is required")) { try p.required("--db") }
    }
}

@Suite("command tables")
struct CommandTableTests {
    let table = CommandTable(
        program: "demo", summary: "a demo",
        commands: [
            Subcommand(name: "hello", summary: "greets") { args, io in
                io.out.write("hello \(args.joined(separator: " "))\n")
                return .success
            },
            .notYetAvailable("later", summary: "comes later", program: "demo"),
        ])

    @Test("--help lists every command and every exit code")
    func help() async {
        let out = BufferSink()
        let code = await table.run(["--help"], io: ProgramIO(out: out, err: BufferSink()))
        #expect(code == .success)
        #expect(out.text.contains("  hello  greets"))
        #expect(out.text.contains("  later  comes later [not yet available]"))
        for exit in ExitCode.allCases { #expect(out.text.contains("\(exit.rawValue)")) }
    }

    @Test("dispatches to the command with the remaining arguments")
    func dispatch() async {
        let out = BufferSink()
        #expect(await table.run(["hello", "a", "b"], io: ProgramIO(out: out, err: BufferSink())) == .success)
        #expect(out.text == "hello a b\n")
    }

    @Test("unknown, missing and unavailable commands fail with distinct codes and a message")
    func failures() async {
        let err = BufferSink()
        let io = ProgramIO(out: BufferSink(), err: err)
        #expect(await table.run(["bogus"], io: io) == .usage)
        #expect(err.text.contains("unknown command 'bogus'"))
        #expect(await table.run([], io: io) == .usage)
        #expect(await table.run(["later"], io: io) == .unavailable)
        #expect(err.text.contains("demo later: not available in this build of ShareKit"))
    }
}
