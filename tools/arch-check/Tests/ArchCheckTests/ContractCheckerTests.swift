import ArchCheckCore
import Foundation
import Testing

/// Contract rules on hand-built models (no SwiftPM involved).
@Suite("ContractChecker")
struct ContractCheckerTests {
    /// The repository's advice for independence, appended to its messages.
    private let advice = "; modules meet through Interfaces/ and share building blocks from Support/"

    /// Interfaces/UploadsInterface, Interfaces/MessagesInterface,
    /// Modules/Uploads (Uploads, UploadsTesting, CCurl), Modules/Messages.
    private func baseline() -> (ModelBuilder, uploads: TargetID, messages: TargetID, curl: TargetID) {
        var builder = ModelBuilder()
        let uploadsInterface = builder.target(builder.package("Interfaces/UploadsInterface"), "UploadsInterface")
        let messagesInterface = builder.target(builder.package("Interfaces/MessagesInterface"), "MessagesInterface")
        builder.package("Modules/Uploads", products: [ProductDeclaration(name: "Uploads", targets: ["Uploads"])])
        let curl = builder.target("Modules/Uploads", "CCurl", type: .system, systemLibraries: ["libcurl"])
        let uploads = builder.target("Modules/Uploads", "Uploads")
        builder.depend(uploads, on: [uploadsInterface, messagesInterface])
        builder.depend(uploads, on: [curl])
        builder.file(uploads, "Uploader.swift", "import UploadsInterface\nimport MessagesInterface\nimport CCurl")
        let messages = builder.target(builder.package("Modules/Messages"), "Messages")
        return (builder, uploads, messages, curl)
    }

    @Test("the baseline keeps every contract; a module may use its own package's C shim")
    func baselineKeeps() {
        let result = baseline().0.check()
        #expect(result.violations.isEmpty)
        #expect(result.summaryLine == "arch-check: 7 contracts, 7 kept, 0 broken (0 violations)")
        #expect(result.exitCode == 0)
    }

    @Test("a forbidden dependency that is declared but never imported is reported at the manifest")
    func manifestOnly() {
        var (builder, uploads, messages, _) = baseline()
        builder.depend(uploads, on: [messages], as: .product(name: "MessagesProduct", package: "Messages"), line: 14)
        let result = builder.check()
        #expect(result.compact == ["Modules/Uploads/Package.swift:14:30 [independence]"])
        #expect(
            result.violations.first?.message
                == "Uploads depends on Messages (through product MessagesProduct); depend on MessagesInterface instead\(advice)"
        )
    }

    @Test("an undeclared import of another module breaks independence and explicit-imports at the same place")
    func undeclaredModuleImport() {
        var (builder, uploads, _, _) = baseline()
        builder.file(uploads, "Notify.swift", "\n\nimport Messages")
        let result = builder.check()
        #expect(
            result.compact == [
                "Modules/Uploads/Sources/Uploads/Notify.swift:3:8 [independence]",
                "Modules/Uploads/Sources/Uploads/Notify.swift:3:8 [explicit-imports]",
            ])
        let explicit = result.violations.first { $0.contract == "explicit-imports" }
        #expect(
            explicit?.message.hasSuffix("remove the import (the contracts reported with it forbid this dependency)")
                == true)
        #expect(result.summaryLine == "arch-check: 7 contracts, 5 kept, 2 broken (2 violations)")
    }

    @Test("each import of a forbidden module is reported, with the suggested interface when it exists")
    func everyImportSite() {
        var (builder, uploads, messages, _) = baseline()
        builder.package("Interfaces/MessagesInterface", name: "MessagesInterface")
        builder.depend(uploads, on: [messages], line: 12)
        builder.file(uploads, "A.swift", "import Messages")
        builder.file(uploads, "B.swift", "import Foundation\nimport Messages")
        let result = builder.check()
        #expect(
            result.compact == [
                "Modules/Uploads/Sources/Uploads/A.swift:1:8 [independence]",
                "Modules/Uploads/Sources/Uploads/B.swift:2:8 [independence]",
            ])
        #expect(
            result.violations.first?.message
                == "Uploads imports Messages; depend on MessagesInterface instead\(advice) (declared in Modules/Uploads/Package.swift:12:30)"
        )
    }

    @Test("independence without an interface to suggest says which layer to use")
    func independenceWithoutInterface() {
        var builder = ModelBuilder()
        let outbox = builder.target(builder.package("Modules/Outbox"), "Outbox")
        let store = builder.target(builder.package("Modules/Store"), "Store")
        builder.depend(outbox, on: [store])
        builder.file(outbox, "O.swift", "import Store")
        let result = builder.check()
        #expect(
            result.violations.map(\.line) == [
                "Modules/Outbox/Sources/Outbox/O.swift:1:8: error: [independence] Outbox imports Store, but Modules/Outbox/ and Modules/Store/ must stay independent of each other; modules meet through Interfaces/ and share building blocks from Support/ (declared in Modules/Outbox/Package.swift:10:30)"
            ])
    }

    @Test("layers: interfaces use no module or app, modules no app, nothing but tests uses a test target")
    func layers() {
        var builder = ModelBuilder()
        let interface = builder.target(builder.package("Interfaces/CoreInterface"), "CoreInterface")
        let module = builder.target(builder.package("Modules/Store"), "Store")
        builder.package(".")
        let app = builder.target(".", "ShareKit", sourceDirectory: "Apps/ShareKit")
        let support = builder.target(".", "TestSupport", sourceDirectory: "Tests/TestSupport")
        let tests = builder.target(".", "StoreTests", type: .test, sourceDirectory: "Tests/StoreTests")
        builder.depend(interface, on: [module], line: 5)
        builder.depend(module, on: [app], line: 6)
        builder.depend(app, on: [support], line: 7)
        builder.depend(tests, on: [module, app, interface, support], line: 8)
        let result = builder.check()
        #expect(
            result.compact == [
                "Interfaces/CoreInterface/Package.swift:5:30 [layers]",
                "Modules/Store/Package.swift:6:30 [layers]",
                "Package.swift:7:30 [layers]",
            ])
    }

    @Test("layers: Support/ uses only Support/; interfaces may not use it; modules, apps and tests may")
    func supportLayer() {
        var builder = ModelBuilder()
        let interface = builder.target(builder.package("Interfaces/CoreInterface"), "CoreInterface")
        let files = builder.target(builder.package("Support/SecureFiles"), "SecureFiles")
        let errors = builder.target(builder.package("Support/PosixErrors"), "PosixErrors")
        let module = builder.target(builder.package("Modules/Store"), "Store")
        builder.package(".")
        let app = builder.target(".", "ShareKit", sourceDirectory: "Apps/ShareKit")
        let tests = builder.target(".", "StoreTests", type: .test, sourceDirectory: "Tests/StoreTests")
        // Allowed: support on support; module, app and tests on support.
        builder.depend(files, on: [errors], line: 4)
        builder.depend(module, on: [interface, files], line: 5)
        builder.depend(app, on: [module, files], line: 6)
        builder.depend(tests, on: [module, files, errors], line: 7)
        // Forbidden: support on an interface, a module or an app; an interface on support.
        builder.depend(errors, on: [interface], line: 8)
        builder.depend(files, on: [module], line: 9)
        builder.file(files, "SecureDirectory.swift", "import PosixErrors\nimport Store\nimport ShareKit")
        builder.depend(interface, on: [files], line: 10)
        let result = builder.check()
        #expect(
            result.compact == [
                "Interfaces/CoreInterface/Package.swift:10:30 [layers]",
                "Support/PosixErrors/Package.swift:8:30 [layers]",
                "Support/SecureFiles/Sources/SecureFiles/SecureDirectory.swift:2:8 [layers]",
                "Support/SecureFiles/Sources/SecureFiles/SecureDirectory.swift:3:8 [layers]",
                "Support/SecureFiles/Sources/SecureFiles/SecureDirectory.swift:3:8 [explicit-imports]",
            ])
        #expect(
            result.violations.first?.message.hasPrefix(
                "CoreInterface depends on SecureFiles, but Support/ and Interfaces/ are independent siblings of one layer"
            )
                == true)
        #expect(
            result.violations.dropFirst().allSatisfy {
                $0.contract != "layers" || $0.message.contains("which is in a higher layer")
                    || $0.message.contains("are independent siblings of one layer")
            })
    }

    @Test("the repository's layers: each folder may use exactly the folders ADR 0003 allows")
    func layerTable() {
        let folders = ["Interfaces", "Support", "Modules", "Apps", "Tests"]
        let allowed: [String: Set<String>] = [
            "Interfaces": ["Interfaces"],
            "Support": ["Support"],
            "Modules": ["Interfaces", "Support", "Modules"],
            "Apps": ["Interfaces", "Support", "Modules", "Apps"],
            "Tests": Set(folders),
        ]
        for consumer in folders {
            for dependency in folders {
                var builder = ModelBuilder()
                let used = builder.target(builder.package("\(dependency)/Used"), "Used")
                let user = builder.target(builder.package("\(consumer)/User"), "User")
                builder.depend(user, on: [used])
                let layers = builder.check().violations.filter { $0.contract == "layers" }
                #expect(layers.isEmpty == allowed[consumer]!.contains(dependency), "\(consumer) -> \(dependency)")
            }
        }
    }

    @Test("forbidden, layers and independence from a configuration, with patterns and Package/Target names")
    func configuredContracts() throws {
        var builder = ModelBuilder()
        let core = builder.target(builder.package("."), "NIOCore")
        let posix = builder.target(".", "NIOPosix")
        let search = builder.target(".", "SearchFeature")
        let profile = builder.target(".", "ProfileFeature")
        let hookOn = builder.target(builder.package("Hooks/On", name: "Hooks"), "Hooks")
        let hookOff = builder.target(builder.package("Hooks/Off", name: "Hooks"), "Hooks")
        builder.depend(posix, on: [core])
        builder.file(core, "Core.swift", "#if os(Linux)\nimport NIOPosix\n#endif")
        builder.depend(search, on: [profile], line: 20)
        builder.depend(hookOn, on: [hookOff], as: .product(name: "Hooks", package: "Off"), line: 30)
        let configuration = try Configuration.parse(
            Data(
                #"""
                {"contracts": [
                  {"name": "Core below Posix", "type": "forbidden", "source": ["NIOCore"], "forbidden": ["NIOPosix"]},
                  {"name": "Layers", "type": "layers", "layers": ["*Feature", "NIOPosix", "NIOCore"]},
                  {"name": "Features apart", "type": "independence", "targets": ["*Feature"]},
                  {"name": "Hooks apart", "type": "forbidden", "source": ["On/Hooks"], "forbidden": ["Off/*"]}
                ]}
                """#.utf8), file: "c.json")
        let result = builder.check(configuration)
        #expect(
            result.compact == [
                "Hooks/On/Package.swift:30:30 [Hooks apart]",
                "Package.swift:20:30 [Features apart]",
                "Sources/NIOCore/Core.swift:2:8 [Core below Posix]",
                "Sources/NIOCore/Core.swift:2:8 [Layers]",
            ])
        #expect(
            result.violations.first?.message
                == "Hooks/On/Hooks depends on Hooks/Off/Hooks (through product Hooks), which Hooks/On/Hooks must not use"
                || result.violations.first?.message
                    == "Hooks/On/Hooks depends on Hooks/Off/Hooks, which Hooks/On/Hooks must not use"
        )
        #expect(result.violations[2].conditions == ["os(Linux)"])
        #expect(result.summaryLine == "arch-check: 4 contracts, 0 kept, 4 broken (4 violations)")
    }

    @Test("c-shims: another package's shim is off limits, also for apps and tests")
    func shimUse() {
        var (builder, _, _, curl) = baseline()
        builder.package(".")
        let app = builder.target(".", "ShareCLI", type: .executable, sourceDirectory: "Apps/ShareCLI")
        let tests = builder.target(".", "UploadsTests", type: .test, sourceDirectory: "Tests/UploadsTests")
        builder.depend(app, on: [curl], line: 20)
        builder.file(tests, "T.swift", "import Testing\n@testable import CCurl")
        builder.depend(tests, on: [curl], line: 21)
        let result = builder.check()
        #expect(
            result.compact == [
                "Package.swift:20:30 [c-shims]",
                "Tests/UploadsTests/T.swift:2:18 [c-shims]",
            ])
    }

    @Test("c-shims: one C library in two packages is reported at the later declaration; libcurl and curl are one")
    func duplicateLibraries() {
        var (builder, _, _, _) = baseline()
        builder.package("Modules/Webhooks")
        builder.target("Modules/Webhooks", "CWebhooksCurl", type: .system, systemLibraries: ["curl"], line: 7)
        // Two shims of one library inside one package are that package's business.
        builder.target("Modules/Uploads", "CCurlToo", type: .system, systemLibraries: ["curl"], line: 8)
        let result = builder.check()
        #expect(result.compact == ["Modules/Webhooks/Package.swift:7:20 [c-shims]"])
        #expect(
            result.violations.first?.message
                == "CWebhooksCurl declares the C library curl, already declared by CCurl at Modules/Uploads/Package.swift:1:20; keep one C shim per library in the package that owns it and use that package instead"
        )
    }

    @Test("c-shims: a root package that vends a nested package's shim (same sources) is one shim, not two")
    func vendedShim() {
        var (builder, _, _, _) = baseline()
        builder.target(
            ".", "CCurl", type: .system, sourceDirectory: "Modules/Uploads/Sources/CCurl", systemLibraries: ["curl"])
        #expect(builder.check().compact.filter { $0.hasSuffix("[c-shims]") }.isEmpty)
    }

    @Test("testing-only: fakes are for Tests/ and for other fakes")
    func testingOnly() {
        var builder = ModelBuilder()
        builder.package("Interfaces/UploadsInterface")
        let interface = builder.target("Interfaces/UploadsInterface", "UploadsInterface")
        let fakes = builder.target("Interfaces/UploadsInterface", "UploadsInterfaceTesting")
        let moreFakes = builder.target("Interfaces/UploadsInterface", "MoreTesting")
        builder.depend(fakes, on: [interface])
        builder.depend(moreFakes, on: [fakes])
        let module = builder.target(builder.package("Modules/Uploads"), "Uploads")
        builder.depend(module, on: [interface, fakes], line: 11)
        builder.package(".")
        let tests = builder.target(".", "UploadsTests", type: .test, sourceDirectory: "Tests/UploadsTests")
        builder.depend(tests, on: [fakes, moreFakes])
        let result = builder.check()
        #expect(result.compact == ["Modules/Uploads/Package.swift:11:30 [testing-only]"])
        #expect(
            result.violations.first?.message.contains(", a testing target that only test targets may use") == true)
    }

    @Test("explicit-imports: unknown modules are reported, toolchain modules and unresolvable declared names are not")
    func explicitImports() {
        var builder = ModelBuilder()
        let module = builder.target(builder.package("Modules/Intake"), "Intake")
        builder.unresolved(module, "Mystery")
        builder.file(
            module, "Intake.swift",
            """
            import Foundation
            import FoundationNetworking
            import Synchronization
            import Mystery
            #if canImport(VendorScanningKit)
                import VendorScanningKit
            #endif
            import Intake
            """)
        let result = builder.check()
        #expect(result.compact == ["Modules/Intake/Sources/Intake/Intake.swift:6:12 [explicit-imports]"])
        #expect(result.violations.first?.conditions == ["canImport(VendorScanningKit)"])
        #expect(result.violations.first?.message.contains("neither a toolchain module nor a target") == true)
    }

    @Test("explicit-imports: the advice names the product to add, or the target of the same package")
    func explicitAdvice() {
        var builder = ModelBuilder()
        builder.package(
            "Interfaces/ShareCore", products: [ProductDeclaration(name: "ShareCoreProduct", targets: ["ShareCore"])])
        builder.target("Interfaces/ShareCore", "ShareCore")
        let helper = builder.target(builder.package("Modules/Uploads"), "UploadsHelpers")
        let uploads = builder.target("Modules/Uploads", "Uploads")
        builder.file(uploads, "U.swift", "import ShareCore\nimport UploadsHelpers")
        let result = builder.check()
        #expect(result.compact.count == 2)
        #expect(
            result.violations[0].message.hasSuffix(
                "add .product(name: \"ShareCoreProduct\", package: \"ShareCore\") to the dependencies of Uploads in Modules/Uploads/Package.swift"
            ))
        #expect(
            result.violations[1].message.hasSuffix(
                "add \"UploadsHelpers\" to the dependencies of Uploads in Modules/Uploads/Package.swift"))
        _ = helper
    }

    @Test("no-exported-import: any @_exported import, even of a toolchain module")
    func exported() {
        var builder = ModelBuilder()
        let interface = builder.target(builder.package("Interfaces/ShareCore"), "ShareCore")
        builder.file(interface, "Exports.swift", "@_exported import Foundation")
        let result = builder.check()
        #expect(result.compact == ["Interfaces/ShareCore/Sources/ShareCore/Exports.swift:1:19 [no-exported-import]"])
    }

    @Test("module names follow SwiftPM's c99 names")
    func moduleNames() {
        #expect(ModuleName.c99Name("arch-check") == "arch_check")
        #expect(ModuleName.c99Name("9lives") == "_9lives")
        #expect(ModuleName.c99Name("ShareCore") == "ShareCore")
    }

    // MARK: - composition-root

    /// Apps/ClientAssembly using Modules/Outbox, Apps/ShareDaemonKit on top
    /// of it, Interfaces/OutboxInterface.
    private func apps() -> (ModelBuilder, kit: TargetID, outbox: TargetID) {
        var builder = ModelBuilder()
        let interface = builder.target(builder.package("Interfaces/OutboxInterface"), "OutboxInterface")
        let outbox = builder.target(builder.package("Modules/Outbox"), "Outbox")
        builder.depend(outbox, on: [interface])
        builder.package(".")
        let assembly = builder.target(".", "ClientAssembly", sourceDirectory: "Apps/ClientAssembly")
        builder.depend(assembly, on: [outbox, interface])
        builder.file(assembly, "ClientAssembly.swift", "import Outbox\nimport OutboxInterface")
        let kit = builder.target(".", "ShareDaemonKit", sourceDirectory: "Apps/ShareDaemonKit")
        builder.depend(kit, on: [assembly, interface])
        builder.file(kit, "Daemon.swift", "import ClientAssembly\nimport OutboxInterface")
        return (builder, kit, outbox)
    }

    @Test("composition-root: the roots may use modules, the other apps interfaces")
    func compositionRootKept() {
        let result = apps().0.check()
        #expect(result.violations.isEmpty)
    }

    @Test("composition-root: a module declared but never imported by an app target is reported at the manifest")
    func compositionRootManifestOnly() {
        var (builder, kit, outbox) = apps()
        builder.depend(kit, on: [outbox], as: .product(name: "Outbox", package: "Outbox"), line: 40)
        let result = builder.check()
        #expect(result.compact == ["Package.swift:40:30 [composition-root]"])
        #expect(
            result.violations.first?.message
                == "ShareDaemonKit depends on Outbox; ask ClientAssembly for an interface instead")
    }

    @Test("composition-root: each import of a module by an app target is reported where it is written")
    func compositionRootImports() {
        var (builder, kit, outbox) = apps()
        builder.depend(kit, on: [outbox])
        builder.file(kit, "Takeover.swift", "import OutboxInterface\nimport Outbox")
        let result = builder.check()
        #expect(result.compact == ["Apps/ShareDaemonKit/Takeover.swift:2:8 [composition-root]"])
        #expect(result.violations.first?.message.hasPrefix("ShareDaemonKit imports Outbox; ask ClientAssembly") == true)
    }

    @Test("composition-root: a library app target (AppSupport) on no root is told the tree's root")
    func compositionRootOtherApp() {
        var (builder, _, outbox) = apps()
        let support = builder.target(".", "AppSupport", sourceDirectory: "Apps/AppSupport")
        builder.depend(support, on: [outbox])
        builder.file(support, "Output.swift", "import Outbox")
        let result = builder.check()
        #expect(result.compact == ["Apps/AppSupport/Output.swift:1:8 [composition-root]"])
        #expect(
            result.violations.first?.message
                == "AppSupport imports Outbox; ask ClientAssembly for an interface instead (declared in Package.swift:10:30)"
        )
    }

    @Test("composition-root: a tree without a composition root is not judged; tests may use modules")
    func compositionRootWithoutRoots() {
        var builder = ModelBuilder()
        let outbox = builder.target(builder.package("Modules/Outbox"), "Outbox")
        builder.package(".")
        let app = builder.target(".", "ShareCLI", sourceDirectory: "Apps/ShareCLI")
        builder.depend(app, on: [outbox])
        builder.file(app, "main.swift", "import Outbox")
        let tests = builder.target(".", "OutboxTests", type: .test, sourceDirectory: "Tests/OutboxTests")
        builder.depend(tests, on: [outbox])
        builder.file(tests, "OutboxTests.swift", "import Outbox")
        #expect(builder.check().violations.isEmpty)
    }
}
