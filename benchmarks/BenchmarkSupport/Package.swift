// swift-tools-version: 6.0
// Benchmark support: the process code the benchmarks share (posix_spawn and
// waitpid, close-on-exec pipes, monotonic and CPU clocks, and starting,
// stopping and building a release `share-server`). Foundation and Glibc
// only; benchmarks depend on it by path, so it never enters the main build.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "BenchmarkSupport",
    products: [
        .library(name: "BenchmarkSupport", targets: ["BenchmarkSupport"])
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
