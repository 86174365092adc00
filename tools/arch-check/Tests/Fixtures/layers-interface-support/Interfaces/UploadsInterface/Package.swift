// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "UploadsInterface",
    products: [.library(name: "UploadsInterface", targets: ["UploadsInterface"])],
    dependencies: [.package(path: "../../Support/SecureFiles")],
    targets: [
        .target(
            name: "UploadsInterface",
            dependencies: [.product(name: "SecureFiles", package: "SecureFiles")]
        ),
    ]
)
