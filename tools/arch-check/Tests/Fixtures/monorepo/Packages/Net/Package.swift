// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Net",
    products: [.library(name: "Net", targets: ["Net"])],
    dependencies: [.package(path: "../Core")],
    targets: [.target(name: "Net", dependencies: [.product(name: "Core", package: "Core")])]
)
