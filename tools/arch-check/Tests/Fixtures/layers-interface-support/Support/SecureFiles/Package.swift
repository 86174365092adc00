// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SecureFiles",
    products: [.library(name: "SecureFiles", targets: ["SecureFiles"])],
    targets: [.target(name: "SecureFiles")]
)
