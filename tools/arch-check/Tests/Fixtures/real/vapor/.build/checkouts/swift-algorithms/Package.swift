// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-algorithms.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-algorithms",
    products: [
        .library(name: "Algorithms", targets: ["Algorithms"]),
    ],
    targets: [
        .target(name: "Algorithms"),
    ]
)
