// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-atomics.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-atomics",
    products: [
        .library(name: "Atomics", targets: ["Atomics"]),
    ],
    targets: [
        .target(name: "Atomics"),
    ]
)
