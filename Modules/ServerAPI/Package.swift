// swift-tools-version: 6.0
// The authorized API client: the session's token, the DPoP-signing client,
// one refresh, one classification of every answer. The only implementation
// of ServerAPIInterface's AuthorizedAPIClient.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ServerAPI",
    products: [
        .library(name: "ShareKitServerAPI", targets: ["ShareKitServerAPI"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/HTTPTypes"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/SessionsInterface"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
        .package(path: "../../Interfaces/KeychainInterface"),
    ],
    targets: [
        .target(
            name: "ShareKitServerAPI",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitSessionsInterface", package: "SessionsInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
            ],
            path: "Sources/ServerAPI",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServerAPITests",
            dependencies: [
                "ShareKitServerAPI", .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitSessionsInterface", package: "SessionsInterface"),
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitHTTPInterfaceTesting", package: "HTTPInterface"),
                .product(name: "ShareKitSessionsInterfaceTesting", package: "SessionsInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
