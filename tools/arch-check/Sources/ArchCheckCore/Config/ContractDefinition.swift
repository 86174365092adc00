/// One contract of the configuration: its name, its type with that type's
/// members, and optional advice appended to each of its messages.
public struct ContractDefinition: Sendable, Hashable {
    /// The contract types and their members, as documented in the README's
    /// configuration reference.
    public enum Kind: Sendable, Hashable {
        /// `layers`: the entries from highest to lowest; each entry is one
        /// selector, or several siblings that must not use each other.
        case layers([[TargetSelector]])
        /// `forbidden`: no `source` target uses a `forbidden` one.
        case forbidden(source: [TargetSelector], forbidden: [TargetSelector])
        /// `independence`: no unit of `targets` uses another; `suggest`
        /// holds name templates (`{target}`, `{package}`) for the advice.
        case independence(targets: [TargetSelector], suggest: [String])
        /// `explicit-imports`: every import of a `targets` target (all when
        /// `nil`) names a direct dependency, a toolchain module or an
        /// `allow`ed module; `reportUnknown` also reports modules that are
        /// no target arch-check can see.
        case explicitImports(targets: [TargetSelector]?, allow: [String], reportUnknown: Bool)
        /// `c-shims`: the system-library targets of `targets` (all when
        /// `nil`) are used only inside their own package, and each C library
        /// is declared by one package.
        case cShims(targets: [TargetSelector]?)
        /// `testing-only`: the `targets` (fakes) are used only by test
        /// targets, by each other and by `users`.
        case testingOnly(targets: [TargetSelector], users: [TargetSelector])
        /// `no-exported-import`: no `@_exported import` in `targets` (all when
        /// `nil`), except of `allow`ed modules.
        case noExportedImport(targets: [TargetSelector]?, allow: [String])
        /// `composition-root`: among `targets`, only `roots` use
        /// `implementations`; the others are told to ask a root.
        case compositionRoot(targets: [TargetSelector], roots: [TargetSelector], implementations: [TargetSelector])
        /// `unused-dependencies`: every declared dependency of a `targets`
        /// target (all when `nil`) is imported by one of its sources.
        case unusedDependencies(targets: [TargetSelector]?)
    }

    /// How much a violation of the contract counts.
    public enum Level: String, Sendable, Hashable {
        /// Violations fail the run (the default).
        case error
        /// Violations are shown as warnings and do not fail the run: a
        /// contract being introduced.
        case warn
    }

    /// One known use the contract accepts (`"ignore": [{"from", "to",
    /// "reason"}]`): a violation from a target matching `from` to a target
    /// or module matching `to` is left out.
    public struct IgnoredEdge: Sendable, Hashable, CustomStringConvertible {
        /// Pattern of the using target's name (`*` allowed).
        public let from: String
        /// Pattern of the used target's or module's name.
        public let to: String
        /// Why it is accepted, shown in the overview.
        public let reason: String?

        /// Creates an entry.
        public init(from: String, to: String, reason: String? = nil) {
            self.from = from
            self.to = to
            self.reason = reason
        }

        /// Whether the entry covers `violation`.
        public func matches(_ violation: Violation) -> Bool {
            Pattern.matches(from, violation.from) && Pattern.matches(to, violation.to)
        }

        /// `from -> to`.
        public var description: String { "\(from) -> \(to)" }
    }

    /// The contract's name, printed in brackets on each violation.
    public let name: String
    /// What it checks.
    public let kind: Kind
    /// Text appended to every message of the contract (`; <advice>`).
    public let advice: String?
    /// Whether a pattern of this contract may match no target (a rule kept
    /// for targets still to come); by default that is a configuration error.
    public let allowUnmatched: Bool
    /// Known uses the contract accepts.
    public let ignore: [IgnoredEdge]
    /// Whether its violations fail the run.
    public let level: Level

    /// Creates a contract.
    public init(
        name: String, kind: Kind, advice: String? = nil, allowUnmatched: Bool = false, ignore: [IgnoredEdge] = [],
        level: Level = .error
    ) {
        self.name = name
        self.kind = kind
        self.advice = advice
        self.allowUnmatched = allowUnmatched
        self.ignore = ignore
        self.level = level
    }

    /// The `type` string of the configuration.
    public var type: String {
        switch kind {
        case .layers: "layers"
        case .forbidden: "forbidden"
        case .independence: "independence"
        case .explicitImports: "explicit-imports"
        case .cShims: "c-shims"
        case .testingOnly: "testing-only"
        case .noExportedImport: "no-exported-import"
        case .compositionRoot: "composition-root"
        case .unusedDependencies: "unused-dependencies"
        }
    }

    /// Every contract type with its members and a one-line summary, for
    /// `--help` and error messages.
    public static let types: [(type: String, members: String, summary: String)] = [
        ("layers", "layers", "a target of a higher entry may use lower ones, never the reverse"),
        ("forbidden", "source, forbidden", "no source target uses a forbidden one"),
        ("independence", "targets, suggest?", "no matched unit uses another"),
        ("explicit-imports", "targets?, allow?, reportUnknown?", "every import names a direct dependency"),
        ("c-shims", "targets?", "a system-library target is used only by its own package; one per C library"),
        ("testing-only", "targets, users?", "fakes are used only by test targets (and users)"),
        ("no-exported-import", "targets?, allow?", "no @_exported import"),
        ("composition-root", "targets, roots, implementations", "among targets, only roots use implementations"),
        ("unused-dependencies", "targets?", "every declared dependency is imported by a source of the target"),
    ]

    /// Every selector the contract writes, for checking that each matches.
    var selectors: [TargetSelector] {
        switch kind {
        case .layers(let levels): levels.flatMap { $0 }
        case .forbidden(let source, let forbidden): source + forbidden
        case .independence(let targets, _): targets
        case .explicitImports(let targets, _, _), .cShims(let targets), .noExportedImport(let targets, _),
            .unusedDependencies(let targets):
            targets ?? []
        case .testingOnly(let targets, let users): targets + users
        case .compositionRoot(let targets, let roots, let implementations): targets + roots + implementations
        }
    }
}
