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
        .library(name: "PostgresStore", targets: ["PostgresStore"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/SQLInterface"),
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .systemLibrary(
            name: "CPostgres",
            path: "Sources/CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "PostgresStore",
            dependencies: [.product(name: "SQLInterface", package: "SQLInterface"), "CPostgres"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "PostgresStore", .product(name: "SQLInterface", package: "SQLInterface"),
                .product(name: "SystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
