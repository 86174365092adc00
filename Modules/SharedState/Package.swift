// swift-tools-version: 6.0
// The shared container directory, its allow-listed key-value state and the
// cross-process locks kept in it.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SharedState",
    products: [
        .library(name: "SharedState", targets: ["SharedState"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/SharedStateInterface")
    ],
    targets: [
        .target(
            name: "SharedState",
            dependencies: [.product(name: "SharedStateInterface", package: "SharedStateInterface")],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
