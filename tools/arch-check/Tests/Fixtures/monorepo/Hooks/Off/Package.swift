// swift-tools-version:6.0
// Two packages of one name with a target of one name: told apart by folder.
import PackageDescription

let package = Package(
    name: "Hooks",
    products: [.library(name: "Hooks", targets: ["Hooks"])],
    targets: [.target(name: "Hooks")]
)
