// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-argument-parser.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-argument-parser",
    products: [
        .library(name: "ArgumentParser", targets: ["ArgumentParser"]),
    ],
    targets: [
        .target(name: "ArgumentParser"),
    ]
)
