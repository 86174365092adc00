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
        .library(name: "ServerAPI", targets: ["ServerAPI"])
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
            name: "ServerAPI",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPTypes", package: "HTTPTypes"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "SessionsInterface", package: "SessionsInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServerAPITests",
            dependencies: [
                "ServerAPI", .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "HTTPTypes", package: "HTTPTypes"),
                .product(name: "SessionsInterface", package: "SessionsInterface"),
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "HTTPInterfaceTesting", package: "HTTPInterface"),
                .product(name: "SessionsInterfaceTesting", package: "SessionsInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
