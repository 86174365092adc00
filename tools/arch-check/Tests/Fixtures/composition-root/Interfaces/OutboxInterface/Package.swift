// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OutboxInterface",
    products: [.library(name: "OutboxInterface", targets: ["OutboxInterface"])],
    targets: [.target(name: "OutboxInterface")]
)
