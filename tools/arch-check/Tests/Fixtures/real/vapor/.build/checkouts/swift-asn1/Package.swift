// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-asn1.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-asn1",
    products: [
        .library(name: "SwiftASN1", targets: ["SwiftASN1"]),
    ],
    targets: [
        .target(name: "SwiftASN1"),
    ]
)
