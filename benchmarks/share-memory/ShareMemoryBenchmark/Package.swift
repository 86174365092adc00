// swift-tools-version: 6.0
// Share memory benchmark: the peak RSS of the built `share send FILE` process
// (wait4's ru_maxrss) sharing a 1 MiB (the reference), a 256 MiB and a 2 GiB
// file into a thread of a release `share-server` (goal: the 2 GiB share
// needs no more memory than the 256 MiB one). A separate package so that
// benchmarks never slow down the main build; one level below
// benchmarks/share-memory like the other benchmarks.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ShareMemoryBenchmark",
    products: [
        .executable(name: "share-memory-benchmark", targets: ["ShareMemoryBenchmark"])
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport"),
        .package(path: "../../../Interfaces/SQLInterface"),
        .package(path: "../../../Modules/SQLiteStore"),
    ],
    targets: [
        .executableTarget(
            name: "ShareMemoryBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
                .product(name: "ShareKitSQLiteStore", package: "SQLiteStore"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
