// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Gadgets",
    products: [.library(name: "Gadgets", targets: ["Gadgets"])],
    targets: [.target(name: "Gadgets")]
)
