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
                .product(name: "DPoP", package: "DPoP"),
                .product(name: "OpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "CryptoInterface", package: "CryptoInterface"),
                .product(name: "DPoPInterface", package: "DPoPInterface"),
                .product(name: "DPoPInterfaceTesting", package: "DPoPInterface"),
                .product(name: "ShareCore", package: "ShareCore"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
