// swift-tools-version: 6.0
// DPoP benchmark: proofs per second on one core against `openssl speed
// ecdsap256` measured in the same run, and verifications per second.
// A separate package so that benchmarks never slow down the main build. It
// lives one level below benchmarks/dpop because SwiftPM names a path package
// after its directory, and a package named "dpop" would clash with Modules/DPoP.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "DPoPBenchmark",
    products: [
        .executable(name: "dpop-benchmark", targets: ["DPoPBenchmark"])
    ],
    dependencies: [
        .package(path: "../../../Interfaces/CryptoInterface"),
        .package(path: "../../../Interfaces/DPoPInterface"),
        .package(path: "../../../Modules/DPoP"),
        .package(path: "../../../Modules/OpenSSLCrypto"),
    ],
    targets: [
        .executableTarget(
            name: "DPoPBenchmark",
            dependencies: [
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitDPoPInterfaceTesting", package: "DPoPInterface"),
                .product(name: "ShareKitDPoP", package: "DPoP"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
