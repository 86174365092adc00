// swift-tools-version: 6.0
// Upload memory benchmark: the peak RSS of a fresh process that logs in to a
// release `share-server` and uploads a 256 MiB and a 2 GiB file with
// StreamingUploader (goal: at most 48 MiB, and at most 4 MiB more for the
// 2 GiB file than for the 256 MiB one). A separate package so that
// benchmarks never slow down the main build; one level below
// benchmarks/upload-memory like the other benchmarks.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "UploadMemoryBenchmark",
    products: [
        .executable(name: "upload-memory-benchmark", targets: ["UploadMemoryBenchmark"])
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport"),
        .package(path: "../../../Interfaces/CryptoInterface"),
        .package(path: "../../../Interfaces/HTTPInterface"),
        .package(path: "../../../Interfaces/KeychainInterface"),
        .package(path: "../../../Interfaces/SessionsInterface"),
        .package(path: "../../../Interfaces/SharedStateInterface"),
        .package(path: "../../../Interfaces/UploadsInterface"),
        .package(path: "../../../Modules/DPoP"),
        .package(path: "../../../Modules/HTTPTransport"),
        .package(path: "../../../Modules/KeychainStore"),
        .package(path: "../../../Modules/OpenSSLCrypto"),
        .package(path: "../../../Modules/Sessions"),
        .package(path: "../../../Modules/SharedState"),
        .package(path: "../../../Modules/Uploads"),
        .package(path: "../../../Modules/ServerAPI"),
    ],
    targets: [
        .executableTarget(
            name: "UploadMemoryBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "CryptoInterface", package: "CryptoInterface"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "SessionsInterface", package: "SessionsInterface"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "DPoP", package: "DPoP"),
                .product(name: "HTTPTransport", package: "HTTPTransport"),
                .product(name: "KeychainStore", package: "KeychainStore"),
                .product(name: "OpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "Sessions", package: "Sessions"),
                .product(name: "SharedState", package: "SharedState"),
                .product(name: "Uploads", package: "Uploads"),
                .product(name: "ServerAPI", package: "ServerAPI"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
