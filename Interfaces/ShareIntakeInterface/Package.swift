// swift-tools-version: 6.0
// Deciding what a shared item is and loading it within a deadline.
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
    name: "ShareIntakeInterface",
    products: [
        .library(name: "ShareKitIntakeInterface", targets: ["ShareKitIntakeInterface"])
    ],
    dependencies: [
        .package(path: "../ShareCore")
    ],
    targets: [
        .target(
            name: "ShareKitIntakeInterface",
            dependencies: [.product(name: "ShareKitCore", package: "ShareCore")],
            path: "Sources/ShareIntakeInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
