// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PosixErrors",
    products: [.library(name: "PosixErrors", targets: ["PosixErrors"])],
    targets: [.target(name: "PosixErrors")]
)
