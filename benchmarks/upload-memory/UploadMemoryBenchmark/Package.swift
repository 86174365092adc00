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
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitSessionsInterface", package: "SessionsInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitDPoP", package: "DPoP"),
                .product(name: "ShareKitHTTPTransport", package: "HTTPTransport"),
                .product(name: "ShareKitKeychainStore", package: "KeychainStore"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "ShareKitSessions", package: "Sessions"),
                .product(name: "ShareKitSharedState", package: "SharedState"),
                .product(name: "ShareKitUploads", package: "Uploads"),
                .product(name: "ShareKitServerAPI", package: "ServerAPI"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
