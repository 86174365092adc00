// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MessagesInterface",
    products: [.library(name: "MessagesInterface", targets: ["MessagesInterface"])],
    targets: [.target(name: "MessagesInterface")]
)
