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
                .product(name: "ReferenceServer", package: "ReferenceServer"),
                .product(name: "SQLiteStore", package: "SQLiteStore"),
                .product(name: "OpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "DPoPInterface", package: "DPoPInterface"),
                .product(name: "HTTPServerInterface", package: "HTTPServerInterface"),
                .product(name: "HTTPTypes", package: "HTTPTypes"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
