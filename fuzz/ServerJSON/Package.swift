// swift-tools-version: 6.0
// libFuzzer harness for the reference server's handling of JSON request
// bodies: the whole request handler in process, over an in-memory SQLite.
// Built by fuzz/run with -sanitize=fuzzer; not part of the root package.
import PackageDescription

let package = Package(
    name: "ServerJSONFuzz",
    dependencies: [
        .package(path: "../FuzzSupport"),
        .package(path: "../../Modules/ReferenceServer"),
        .package(path: "../../Modules/SQLiteStore"),
        .package(path: "../../Modules/OpenSSLCrypto"),
        .package(path: "../../Interfaces/DPoPInterface"),
        .package(path: "../../Interfaces/HTTPServerInterface"),
        .package(path: "../../Interfaces/HTTPTypes"),
    ],
    targets: [
        .executableTarget(
            name: "ServerJSONFuzzer",
            dependencies: [
                .product(name: "FuzzSupport", package: "FuzzSupport"),
                .product(name: "ShareKitReferenceServer", package: "ReferenceServer"),
                .product(name: "ShareKitSQLiteStore", package: "SQLiteStore"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitHTTPServerInterface", package: "HTTPServerInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
