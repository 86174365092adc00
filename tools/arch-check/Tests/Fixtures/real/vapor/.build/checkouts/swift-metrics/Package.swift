// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-metrics.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-metrics",
    products: [
        .library(name: "CoreMetrics", targets: ["CoreMetrics"]),
        .library(name: "Metrics", targets: ["Metrics"]),
        .library(name: "MetricsTestKit", targets: ["MetricsTestKit"]),
    ],
    targets: [
        .target(name: "CoreMetrics"),
        .target(name: "Metrics"),
        .target(name: "MetricsTestKit"),
    ]
)
