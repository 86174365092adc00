// swift-tools-version: 6.0
// Session tokens: the keychain store of each family's tokens, the refreshing
// token provider (single flight inside the process and across processes,
// persist before use), and login / child-session creation for the daemon.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Sessions",
    products: [
        .library(name: "ShareKitSessions", targets: ["ShareKitSessions"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/HTTPTypes"),
        .package(path: "../../Interfaces/SessionsInterface"),
        .package(path: "../../Interfaces/KeychainInterface"),
        .package(path: "../../Interfaces/SharedStateInterface"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/WireContract"),
    ],
    targets: [
        .target(
            name: "ShareKitSessions",
            dependencies: [
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitSessionsInterface", package: "SessionsInterface"),
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/Sessions",
            swiftSettings: swiftSettings
        ),
        // The token provider against the published fakes of the HTTP client,
        // the token storage and the locks; the keychain store on the
        // published in-memory secret store.
        .testTarget(
            name: "SessionsTests",
            dependencies: [
                "ShareKitSessions",
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitHTTPInterfaceTesting", package: "HTTPInterface"),
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitKeychainInterfaceTesting", package: "KeychainInterface"),
                .product(name: "ShareKitSessionsInterface", package: "SessionsInterface"),
                .product(name: "ShareKitSessionsInterfaceTesting", package: "SessionsInterface"),
                .product(name: "ShareKitSharedStateInterfaceTesting", package: "SharedStateInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
