// swift-tools-version: 6.0
// Upload benchmark: CurlHTTPClient uploading a large file region to a sink
// that only reads and discards, next to `curl -T` of the same file to the
// same sink in the same run (goal: at least 0.8 of curl's throughput).
// A separate package so that benchmarks never slow down the main build. It
// lives one level below benchmarks/upload, like the other benchmarks, so
// that its name cannot clash with a module package.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "UploadBenchmark",
    products: [
        .executable(name: "upload-benchmark", targets: ["UploadBenchmark"])
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport"),
        .package(path: "../../../Interfaces/HTTPInterface"),
        .package(path: "../../../Interfaces/HTTPServerInterface"),
        .package(path: "../../../Interfaces/HTTPTypes"),
        .package(path: "../../../Modules/HTTPTransport"),
        .package(path: "../../../Modules/MicroHTTPServer"),
    ],
    targets: [
        .executableTarget(
            name: "UploadBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitHTTPServerInterface", package: "HTTPServerInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPTransport", package: "HTTPTransport"),
                .product(name: "ShareKitMicroHTTPServer", package: "MicroHTTPServer"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
