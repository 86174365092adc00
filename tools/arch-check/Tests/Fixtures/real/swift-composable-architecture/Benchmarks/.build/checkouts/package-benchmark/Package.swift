// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/ordo-one/package-benchmark: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "package-benchmark",
    products: [
        .library(name: "Benchmark", targets: ["Benchmark"]),
    ],
    targets: [
        .target(name: "Benchmark"),
    ]
)
