// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-crypto.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-crypto",
    products: [
        .library(name: "Crypto", targets: ["Crypto"]),
    ],
    targets: [
        .target(name: "Crypto"),
    ]
)
