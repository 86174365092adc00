// swift-tools-version: 6.0
// libFuzzer harness for the server's DPoP proof verifier (ES256ProofVerifier)
// over the real OpenSSL provider. Built by fuzz/run with -sanitize=fuzzer;
// not part of the root package, so it may join two modules.
import PackageDescription

let package = Package(
    name: "DPoPProofFuzz",
    dependencies: [
        .package(path: "../FuzzSupport"),
        .package(path: "../../Modules/DPoP"),
        .package(path: "../../Modules/OpenSSLCrypto"),
        .package(path: "../../Interfaces/CryptoInterface"),
        .package(path: "../../Interfaces/DPoPInterface"),
        .package(path: "../../Interfaces/ShareCore"),
    ],
    targets: [
        .executableTarget(
            name: "DPoPProofFuzzer",
            dependencies: [
                .product(name: "FuzzSupport", package: "FuzzSupport"),
                .product(name: "ShareKitDPoP", package: "DPoP"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitDPoPInterfaceTesting", package: "DPoPInterface"),
                .product(name: "ShareKitCore", package: "ShareCore"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
