// swift-tools-version:6.0
// arch-check: the architecture checker of the ShareKit monorepo.
//
// Its own package so that it builds without the rest of the repository (it
// checks that tree, it must not depend on it) and so that a half-written repo
// can never stop the checker from building. Foundation only.
import PackageDescription

// MARK: - Shared settings

/// Every target compiles in Swift 6 mode with the same import-hygiene
/// features the rest of the repository uses.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// MARK: - Package

let package = Package(
    name: "arch-check",
    products: [
        .executable(name: "arch-check", targets: ["ArchCheckCLI"]),
        .library(name: "ArchCheckCore", targets: ["ArchCheckCore"]),
    ],
    targets: [
        // MARK: Core: lexer, manifest model, contracts, report
        .target(
            name: "ArchCheckCore",
            swiftSettings: swiftSettings
        ),
        // MARK: Command line (a few lines; the logic lives in the core)
        .executableTarget(
            name: "ArchCheckCLI",
            dependencies: ["ArchCheckCore"],
            swiftSettings: swiftSettings
        ),
        // MARK: Tests (fixture trees live in Tests/Fixtures, outside every target)
        .testTarget(
            name: "ArchCheckTests",
            dependencies: ["ArchCheckCore", "ArchCheckCLI"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
