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
        .library(name: "Sessions", targets: ["Sessions"])
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
            name: "Sessions",
            dependencies: [
                .product(name: "HTTPTypes", package: "HTTPTypes"),
                .product(name: "SessionsInterface", package: "SessionsInterface"),
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        ),
        // The token provider against the published fakes of the HTTP client,
        // the token storage and the locks; the keychain store on the
        // published in-memory secret store.
        .testTarget(
            name: "SessionsTests",
            dependencies: [
                "Sessions",
                .product(name: "HTTPTypes", package: "HTTPTypes"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "HTTPInterfaceTesting", package: "HTTPInterface"),
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "KeychainInterfaceTesting", package: "KeychainInterface"),
                .product(name: "SessionsInterface", package: "SessionsInterface"),
                .product(name: "SessionsInterfaceTesting", package: "SessionsInterface"),
                .product(name: "SharedStateInterfaceTesting", package: "SharedStateInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
