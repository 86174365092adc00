// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-http-types: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-http-types",
    products: [
        .library(name: "HTTPTypes", targets: ["HTTPTypes"]),
    ],
    targets: [
        .target(name: "HTTPTypes"),
    ]
)
