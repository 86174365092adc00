// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Messages",
    products: [.library(name: "Messages", targets: ["Messages"])],
    targets: [.target(name: "Messages")]
)
