// swift-tools-version: 6.0
// PostgreSQL benchmark: createMessage requests/s with one and with two
// `share-server` processes on one PostgreSQL database, next to PostgreSQL's
// own one-row commits/s (`pgbench` with a one-insert script) on the same
// server in the same run. The load generator is the server benchmark's
// (its `ServerLoad` library); the PostgreSQL server is SystemTesting's
// `TemporaryPostgres`, with durability on. A separate package so that
// benchmarks never slow down the main build; one level below
// benchmarks/postgres so that its name cannot clash with a module package.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "PostgresBenchmark",
    products: [
        .executable(name: "postgres-benchmark", targets: ["PostgresBenchmark"])
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport"),
        .package(path: "../../server/ServerBenchmark"),
        .package(path: "../../../Modules/DPoP"),
        .package(path: "../../../Modules/OpenSSLCrypto"),
        .package(path: "../../../Support/SystemTesting"),
    ],
    targets: [
        .executableTarget(
            name: "PostgresBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "ServerLoad", package: "ServerBenchmark"),
                .product(name: "ShareKitDPoP", package: "DPoP"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
