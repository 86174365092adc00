// swift-tools-version: 6.0
// Recent targets and target search.
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
    name: "TargetStoreInterface",
    products: [
        .library(name: "TargetStoreInterface", targets: ["TargetStoreInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "TargetStoreInterfaceTesting", targets: ["TargetStoreInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "TargetStoreInterface",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TargetStoreInterfaceTesting",
            dependencies: ["TargetStoreInterface", .product(name: "ShareCore", package: "ShareCore")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TargetStoreInterfaceTests",
            dependencies: [
                "TargetStoreInterface", "TargetStoreInterfaceTesting",
                .product(name: "ShareCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
