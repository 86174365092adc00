// swift-tools-version: 6.0
// The SQLite adapter behind SQLInterface.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SQLiteStore",
    products: [
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        // A temporary database for tests only (arch-check's `testing-only`).
        .library(name: "SQLiteStoreTesting", targets: ["SQLiteStoreTesting"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/SQLInterface"),
        .package(path: "../../Support/LazyLibrary"),
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "SQLiteStore",
            dependencies: [.product(name: "SQLInterface", package: "SQLInterface"), "CSQLite", "CSQLiteLoader"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SQLiteStoreTesting",
            dependencies: ["SQLiteStore", .product(name: "SystemTesting", package: "SystemTesting")],
            swiftSettings: swiftSettings
        ),
        // The library's functions, loading it on first use (nothing links it; docs/adr/0019).
        .target(
            name: "CSQLiteLoader",
            dependencies: ["CSQLite", .product(name: "CLazyLibrary", package: "LazyLibrary")]),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: [
                "SQLiteStore", "SQLiteStoreTesting", .product(name: "SQLInterface", package: "SQLInterface"),
                .product(name: "SystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
