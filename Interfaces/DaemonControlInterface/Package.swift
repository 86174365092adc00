// swift-tools-version: 6.0
// The control socket between `share` and `share-daemon`: its messages, the
// client the CLI asks through, the handler the daemon answers with, and the
// one error type of the exchange.
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
    name: "DaemonControlInterface",
    products: [
        .library(name: "ShareKitDaemonControlInterface", targets: ["ShareKitDaemonControlInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitDaemonControlInterfaceTesting", targets: ["ShareKitDaemonControlInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore")
    ],
    targets: [
        .target(
            name: "ShareKitDaemonControlInterface",
            dependencies: [.product(name: "ShareKitCore", package: "ShareCore")],
            path: "Sources/DaemonControlInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitDaemonControlInterfaceTesting",
            dependencies: ["ShareKitDaemonControlInterface"],
            path: "Sources/DaemonControlInterfaceTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DaemonControlInterfaceTests",
            dependencies: ["ShareKitDaemonControlInterface", "ShareKitDaemonControlInterfaceTesting"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
