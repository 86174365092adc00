/// The architecture contracts, in the order they are reported.
public enum ContractName: String, Sendable, Codable, CaseIterable, Comparable {
    /// Apps → Modules → Interfaces, never upward (Tests on top); Support
    /// uses only Support, and interfaces do not use it.
    case layers
    /// No module target uses a target of another module package.
    case independence
    /// Every import names a direct dependency or a toolchain module.
    case explicitImports = "explicit-imports"
    /// A C shim is used only inside the package that declares it, and each
    /// C library is declared by one package.
    case cShims = "c-shims"
    /// `…Testing` targets are used only by tests.
    case testingOnly = "testing-only"
    /// No `@_exported import`.
    case noExportedImport = "no-exported-import"
    /// Among the app targets only the composition roots
    /// (``ContractChecker/compositionRoots``) use modules; the others get
    /// interfaces from them.
    case compositionRoot = "composition-root"

    /// One line on what the contract protects, for `--help` and the README.
    public var summary: String {
        switch self {
        case .layers:
            "Apps -> Modules -> Interfaces, never upward; Support/ uses only Support/ and interfaces do not use it; only Tests/ may use test targets"
        case .independence: "a module target never uses a target of another module package"
        case .explicitImports: "every import names a direct dependency, an owned C shim or a toolchain module"
        case .cShims: "a C shim is used only by its own package; each C library is declared once"
        case .testingOnly: "...Testing targets (fakes) are used only by targets under Tests/"
        case .noExportedImport: "no @_exported import anywhere"
        case .compositionRoot:
            "among Apps/ only the composition roots (ClientAssembly, ShareServerKit) use Modules/; the other app targets ask them for interfaces"
        }
    }

    /// Orders as declared.
    public static func < (lhs: ContractName, rhs: ContractName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
