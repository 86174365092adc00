// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "UploadsInterface",
    products: [.library(name: "UploadsInterface", targets: ["UploadsInterface"])],
    targets: [.target(name: "UploadsInterface")]
)
