// swift-tools-version:6.0
// A consumer that depends on one module package only.
import PackageDescription

let package = Package(
    name: "UploadsConsumer",
    dependencies: [.package(path: "../../../Modules/Uploads")],
    targets: [
        .target(name: "UploadsConsumer", dependencies: [.product(name: "Uploads", package: "Uploads")]),
    ]
)
