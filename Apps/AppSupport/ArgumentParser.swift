import ShareKitCore

/// A strict command-line parser: options are declared, anything else is a
/// usage error that names the culprit.
///
/// Supports `--flag`, `--option value`, `--option=value`, `-h`, and `--` to
/// end options.
public struct ParsedArguments: Sendable, Equatable {
    /// Flags that were given.
    public private(set) var flags: Set<String> = []
    /// Options with their values; a repeated option keeps every value in order.
    public private(set) var options: [String: [String]] = [:]
    /// Positional arguments in order.
    public private(set) var positionals: [String] = []

    /// Parses `arguments` (without the program and command names).
    /// - Parameters:
    ///   - flags: option names (with dashes) that take no value.
    ///   - options: option names (with dashes) that take one value.
    /// - Throws: a usage ``ProgramError`` for an unknown option, a flag given a value,
    ///   or an option without a value.
    public init(_ arguments: [String], flags allowedFlags: Set<String>, options allowedOptions: Set<String>) throws {
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            var name = arg
            var inlineValue: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            if allowedFlags.contains(name) {
                guard inlineValue == nil else {
                    throw ProgramError.usage(AppSupportText.localized(.takesNoValue, ["option": name]))
                }
                flags.insert(name)
            } else if allowedOptions.contains(name) {
                if let v = inlineValue {
                    options[name, default: []].append(v)
                } else {
                    guard i < arguments.count else {
                        throw ProgramError.usage(AppSupportText.localized(.needsValue, ["option": name]))
                    }
                    options[name, default: []].append(arguments[i])
                    i += 1
                }
            } else {
                let known = (allowedFlags.union(allowedOptions)).sorted()
                let suggestion = Suggestion.nearest(to: name, in: known)
                let option = name
                throw ProgramError.usage(
                    LocalizedText { language in
                        AppSupportText.table.text(
                            .unknownOption,
                            ["option": option, "suggestion": Suggestion.didYouMean(suggestion, in: language)],
                            in: language)
                    })
            }
        }
    }

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Whether `--verbose` was given or `SHAREKIT_VERBOSE=1` asks every
    /// program for its most verbose log (the secrets scan runs the whole
    /// end-to-end suite that way, without changing each test's command line).
    public func verbose(environment: [String: String]) -> Bool {
        has("--verbose") || environment["SHAREKIT_VERBOSE"] == "1"
    }

    /// The last value of an option, or nil.
    public func value(_ option: String) -> String? { options[option]?.last }

    /// The value of an option that must be present.
    /// - Throws: a usage ``ProgramError`` naming the option when it is missing.
    public func required(_ option: String) throws -> String {
        guard let v = value(option) else {
            throw ProgramError.usage(AppSupportText.localized(.required, ["option": option]))
        }
        return v
    }
}
