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
        .library(name: "ShareKitTargetStore", targets: ["ShareKitTargetStore"])
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
            name: "ShareKitTargetStore",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitTargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/TargetStore",
            swiftSettings: swiftSettings
        ),
        // The directory against the published fake of the API client, the
        // recent targets in the published in-memory shared state.
        .testTarget(
            name: "TargetStoreTests",
            dependencies: [
                "ShareKitTargetStore",
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitTargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitServerAPIInterfaceTesting", package: "ServerAPIInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitSharedStateInterfaceTesting", package: "SharedStateInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
