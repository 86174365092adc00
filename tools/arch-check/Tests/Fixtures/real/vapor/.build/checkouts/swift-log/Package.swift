// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-log.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-log",
    products: [
        .library(name: "InMemoryLogging", targets: ["InMemoryLogging"]),
        .library(name: "Logging", targets: ["Logging"]),
    ],
    targets: [
        .target(name: "InMemoryLogging"),
        .target(name: "Logging"),
    ]
)
