// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-nio-ssl.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-nio-ssl",
    products: [
        .library(name: "NIOSSL", targets: ["NIOSSL"]),
    ],
    targets: [
        .target(name: "NIOSSL"),
    ]
)
