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
        .library(name: "DPoP", targets: ["DPoP"])
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
            name: "DPoP",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "CryptoInterface", package: "CryptoInterface"),
                .product(name: "DPoPInterface", package: "DPoPInterface"),
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DPoPTests",
            dependencies: [
                "DPoP", .product(name: "DPoPInterface", package: "DPoPInterface"),
                .product(name: "DPoPInterfaceTesting", package: "DPoPInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
