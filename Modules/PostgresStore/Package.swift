// swift-tools-version: 6.0
// The PostgreSQL adapter behind SQLInterface, over libpq.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "PostgresStore",
    products: [
        .library(name: "ShareKitPostgresStore", targets: ["ShareKitPostgresStore"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/SQLInterface"),
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .systemLibrary(
            name: "CShareKitPostgres",
            path: "Sources/CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "ShareKitPostgresStore",
            dependencies: [.product(name: "ShareKitSQLInterface", package: "SQLInterface"), "CShareKitPostgres"],
            path: "Sources/PostgresStore",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "ShareKitPostgresStore", .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
