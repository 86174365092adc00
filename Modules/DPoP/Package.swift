// swift-tools-version: 6.0
// DPoP proofs and their verification (RFC 9449), JWK thumbprints (RFC 7638),
// the client's nonce handling and the device key kept in the secret store.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "DPoP",
    products: [
        .library(name: "ShareKitDPoP", targets: ["ShareKitDPoP"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/CryptoInterface"),
        .package(path: "../../Interfaces/DPoPInterface"),
        .package(path: "../../Interfaces/KeychainInterface"),
        .package(path: "../../Interfaces/SharedStateInterface"),
    ],
    targets: [
        .target(
            name: "ShareKitDPoP",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
            ],
            path: "Sources/DPoP",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DPoPTests",
            dependencies: [
                "ShareKitDPoP", .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitDPoPInterfaceTesting", package: "DPoPInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
