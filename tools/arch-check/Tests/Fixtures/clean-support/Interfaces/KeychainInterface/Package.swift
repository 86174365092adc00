// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "KeychainInterface",
    products: [.library(name: "KeychainInterface", targets: ["KeychainInterface"])],
    targets: [.target(name: "KeychainInterface")]
)
