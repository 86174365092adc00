// swift-tools-version: 6.0
// Server benchmark: createMessage with full DPoP verification against a
// running `share-server`, from several keep-alive connections, next to the
// DPoP module's verify rate and SQLite's own commit rate (libsqlite3 called
// directly, the server's settings) measured in the same run. Its load
// generator (the `ServerLoad` library: keep-alive connections, pre-built
// requests, the driven window, GOAL lines) is shared with
// benchmarks/postgres, which depends on this package by path.
// A separate package so that benchmarks never slow down the main build. It
// lives one level below benchmarks/server, like benchmarks/dpop/DPoPBenchmark,
// so that its name cannot clash with a module package.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ServerBenchmark",
    products: [
        .executable(name: "server-benchmark", targets: ["ServerBenchmark"]),
        .library(name: "ServerLoad", targets: ["ServerLoad"]),
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport"),
        .package(path: "../../../Interfaces/CryptoInterface"),
        .package(path: "../../../Interfaces/DPoPInterface"),
        .package(path: "../../../Modules/DPoP"),
        .package(path: "../../../Modules/OpenSSLCrypto"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite3", path: "Sources/CSQLite3", pkgConfig: "sqlite3"),
        .target(
            name: "ServerLoad",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "ShareKitDPoP", package: "DPoP"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ServerBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitDPoPInterfaceTesting", package: "DPoPInterface"),
                .product(name: "ShareKitDPoP", package: "DPoP"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
                "CSQLite3",
                "ServerLoad",
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
