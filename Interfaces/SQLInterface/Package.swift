// swift-tools-version: 6.0
// A small protocol for an embedded SQL database, so storage users do not own SQLite.
// An interface package: protocols, value types and errors only, no I/O.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SQLInterface",
    products: [
        .library(name: "ShareKitSQLInterface", targets: ["ShareKitSQLInterface"])
    ],
    dependencies: [],
    targets: [
        .target(
            name: "ShareKitSQLInterface",
            dependencies: [],
            path: "Sources/SQLInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
