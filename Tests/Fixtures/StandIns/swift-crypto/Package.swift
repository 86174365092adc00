// swift-tools-version: 6.0
// A stand-in for apple/swift-crypto with the names of its library targets, for the URL consumer
// (Tests/Fixtures/URLConsumer): SwiftPM refuses a graph in which two packages declare a target of
// the same name, so a ShareKit target named like one of these would fail that consumer's resolution.
import PackageDescription

let package = Package(
    name: "swift-crypto",
    products: [
        .library(name: "Crypto", targets: ["Crypto"]),
        .library(name: "_CryptoExtras", targets: ["_CryptoExtras"]),
        .library(name: "CCryptoBoringSSL", targets: ["CCryptoBoringSSL"]),
        .library(name: "CCryptoBoringSSLShims", targets: ["CCryptoBoringSSLShims"]),
        .library(name: "CryptoBoringWrapper", targets: ["CryptoBoringWrapper"]),
    ],
    targets: [
        .target(name: "Crypto"),
        .target(name: "_CryptoExtras"),
        .target(name: "CCryptoBoringSSL"),
        .target(name: "CCryptoBoringSSLShims"),
        .target(name: "CryptoBoringWrapper"),
    ]
)
