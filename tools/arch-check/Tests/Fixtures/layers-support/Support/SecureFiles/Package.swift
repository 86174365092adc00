// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SecureFiles",
    products: [.library(name: "SecureFiles", targets: ["SecureFiles"])],
    dependencies: [.package(path: "../../Modules/Storage")],
    targets: [
        .target(
            name: "SecureFiles",
            dependencies: [.product(name: "Storage", package: "Storage")]
        ),
    ]
)
