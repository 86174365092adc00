// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Uploads",
    products: [.library(name: "Uploads", targets: ["Uploads"])],
    dependencies: [.package(path: "../../Interfaces/UploadsInterface")],
    targets: [
        .target(
            name: "Uploads",
            dependencies: [.product(name: "UploadsInterface", package: "UploadsInterface")]
        ),
    ]
)
