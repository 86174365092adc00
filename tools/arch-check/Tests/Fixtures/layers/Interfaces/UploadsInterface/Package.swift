// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "UploadsInterface",
    products: [.library(name: "UploadsInterface", targets: ["UploadsInterface"])],
    dependencies: [.package(path: "../../Modules/Storage")],
    targets: [
        .target(
            name: "UploadsInterface",
            dependencies: [.product(name: "Storage", package: "Storage")]
        ),
    ]
)
