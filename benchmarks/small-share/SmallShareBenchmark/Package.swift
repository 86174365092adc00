// swift-tools-version: 6.0
// Small share benchmark: the wall time of `share send --text hi --to
// thread:t1` (logged in, warm) against `curl -s -o /dev/null URL/api/v1/health`
// on the same release `share-server`, in paired runs (goal: at most 3x), and
// the wall time of `share --version` (goal: under 10 ms). A separate package
// so that benchmarks never slow down the main build; one level below
// benchmarks/small-share like the other benchmarks.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SmallShareBenchmark",
    products: [
        .executable(name: "small-share-benchmark", targets: ["SmallShareBenchmark"])
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport")
    ],
    targets: [
        .executableTarget(
            name: "SmallShareBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport")
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
