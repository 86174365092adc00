// swift-tools-version: 6.0
// The reference server of the wire contract (docs/protocol.md): routes, storage
// schema and rules, over the HTTP engine, SQL and DPoP interfaces. The
// share-server program wires the concrete engine, SQLite and verifier in.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ReferenceServer",
    products: [
        .library(name: "ShareKitReferenceServer", targets: ["ShareKitReferenceServer"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/HTTPTypes"),
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/CryptoInterface"),
        .package(path: "../../Interfaces/DPoPInterface"),
        .package(path: "../../Interfaces/SQLInterface"),
        .package(path: "../../Interfaces/HTTPServerInterface"),
        .package(path: "../../Interfaces/WireContract"),
        .package(path: "../../Support/SecureFiles"),
    ],
    targets: [
        .target(
            name: "ShareKitReferenceServer",
            dependencies: [
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
                .product(name: "ShareKitHTTPServerInterface", package: "HTTPServerInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
                .product(name: "ShareKitSecureFiles", package: "SecureFiles"),
            ],
            path: "Sources/ReferenceServer",
            swiftSettings: swiftSettings
        ),
        // The parts of the server that read hostile input without a
        // database: the seed file, the fast message-body reader, web forms
        // and the login throttle's arithmetic. The routes on a real
        // database are the root package's ReferenceServerTests.
        .testTarget(
            name: "ReferenceServerTests",
            dependencies: [
                "ShareKitReferenceServer",
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
