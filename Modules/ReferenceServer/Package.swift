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
        .library(name: "ReferenceServer", targets: ["ReferenceServer"])
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
            name: "ReferenceServer",
            dependencies: [
                .product(name: "HTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "CryptoInterface", package: "CryptoInterface"),
                .product(name: "DPoPInterface", package: "DPoPInterface"),
                .product(name: "SQLInterface", package: "SQLInterface"),
                .product(name: "HTTPServerInterface", package: "HTTPServerInterface"),
                .product(name: "WireContract", package: "WireContract"),
                .product(name: "SecureFiles", package: "SecureFiles"),
            ],
            swiftSettings: swiftSettings
        ),
        // The parts of the server that read hostile input without a
        // database: the seed file, the fast message-body reader, web forms
        // and the login throttle's arithmetic. The routes on a real
        // database are the root package's ReferenceServerTests.
        .testTarget(
            name: "ReferenceServerTests",
            dependencies: [
                "ReferenceServer",
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
