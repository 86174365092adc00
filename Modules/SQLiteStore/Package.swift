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
        .library(name: "ShareKitSQLiteStore", targets: ["ShareKitSQLiteStore"]),
        // A temporary database for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitSQLiteStoreTesting", targets: ["ShareKitSQLiteStoreTesting"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/SQLInterface"),
        .package(path: "../../Support/LazyLibrary"),
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .systemLibrary(
            name: "CShareKitSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "ShareKitSQLiteStore",
            dependencies: [
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"), "CShareKitSQLite",
                "CShareKitSQLiteLoader",
            ],
            path: "Sources/SQLiteStore",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitSQLiteStoreTesting",
            dependencies: ["ShareKitSQLiteStore", .product(name: "ShareKitSystemTesting", package: "SystemTesting")],
            path: "Sources/SQLiteStoreTesting",
            swiftSettings: swiftSettings
        ),
        // The library's functions, loading it on first use (nothing links it; docs/adr/0019).
        .target(
            name: "CShareKitSQLiteLoader",
            dependencies: ["CShareKitSQLite", .product(name: "CShareKitLazyLibrary", package: "LazyLibrary")],
            path: "Sources/CSQLiteLoader"),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: [
                "ShareKitSQLiteStore", "ShareKitSQLiteStoreTesting",
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
