// swift-tools-version: 6.0
// The write-ahead share inbox: entries, manifests, locking, completion.
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
    name: "ShareInboxInterface",
    products: [
        .library(name: "ShareKitInboxInterface", targets: ["ShareKitInboxInterface"])
    ],
    dependencies: [
        .package(path: "../ShareCore")
    ],
    targets: [
        .target(
            name: "ShareKitInboxInterface",
            dependencies: [.product(name: "ShareKitCore", package: "ShareCore")],
            path: "Sources/ShareInboxInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
