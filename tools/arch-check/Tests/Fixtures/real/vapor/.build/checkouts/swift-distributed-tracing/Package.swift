// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-distributed-tracing.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-distributed-tracing",
    products: [
        .library(name: "InMemoryTracing", targets: ["InMemoryTracing"]),
        .library(name: "Instrumentation", targets: ["Instrumentation"]),
        .library(name: "Tracing", targets: ["Tracing"]),
    ],
    targets: [
        .target(name: "InMemoryTracing"),
        .target(name: "Instrumentation"),
        .target(name: "Tracing"),
    ]
)
