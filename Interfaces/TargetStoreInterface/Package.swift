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
        .library(name: "ShareKitTargetStoreInterface", targets: ["ShareKitTargetStoreInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitTargetStoreInterfaceTesting", targets: ["ShareKitTargetStoreInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "ShareKitTargetStoreInterface",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/TargetStoreInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitTargetStoreInterfaceTesting",
            dependencies: ["ShareKitTargetStoreInterface", .product(name: "ShareKitCore", package: "ShareCore")],
            path: "Sources/TargetStoreInterfaceTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TargetStoreInterfaceTests",
            dependencies: [
                "ShareKitTargetStoreInterface", "ShareKitTargetStoreInterfaceTesting",
                .product(name: "ShareKitCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
