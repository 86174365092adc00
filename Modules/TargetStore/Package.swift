// swift-tools-version: 6.0
// Target resolution and search against the server (listSpaces,
// searchThreadTitles) and the recent targets in the shared state.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "TargetStore",
    products: [
        .library(name: "TargetStore", targets: ["TargetStore"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/TargetStoreInterface"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
        .package(path: "../../Interfaces/SharedStateInterface"),
        .package(path: "../../Interfaces/WireContract"),
    ],
    targets: [
        .target(
            name: "TargetStore",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "TargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        ),
        // The directory against the published fake of the API client, the
        // recent targets in the published in-memory shared state.
        .testTarget(
            name: "TargetStoreTests",
            dependencies: [
                "TargetStore",
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "TargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ServerAPIInterfaceTesting", package: "ServerAPIInterface"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "SharedStateInterfaceTesting", package: "SharedStateInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
