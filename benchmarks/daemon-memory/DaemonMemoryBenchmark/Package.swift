// swift-tools-version: 6.0
// Daemon memory benchmark: the resident set of a release `share-daemon`
// running in the foreground against a release `share-server`, idle after
// its start and after every step of shares queued in the share inbox,
// taken over and sent (goal: at most 30 MiB after 1000 shares, no growth
// after the first 200). A separate package so that benchmarks never slow
// down the main build; one level below benchmarks/daemon-memory like the
// other benchmarks.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "DaemonMemoryBenchmark",
    products: [
        .executable(name: "daemon-memory-benchmark", targets: ["DaemonMemoryBenchmark"])
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport"),
        .package(path: "../../../Interfaces/ShareCore"),
        .package(path: "../../../Interfaces/ShareInboxInterface"),
        .package(path: "../../../Interfaces/SQLInterface"),
        .package(path: "../../../Modules/ShareInbox"),
        .package(path: "../../../Modules/SQLiteStore"),
    ],
    targets: [
        .executableTarget(
            name: "DaemonMemoryBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitInboxInterface", package: "ShareInboxInterface"),
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
                .product(name: "ShareKitInbox", package: "ShareInbox"),
                .product(name: "ShareKitSQLiteStore", package: "SQLiteStore"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
