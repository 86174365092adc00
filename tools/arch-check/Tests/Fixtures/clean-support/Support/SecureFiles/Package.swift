// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SecureFiles",
    products: [.library(name: "SecureFiles", targets: ["SecureFiles"])],
    dependencies: [.package(path: "../PosixErrors")],
    targets: [
        .target(
            name: "SecureFiles",
            dependencies: [.product(name: "PosixErrors", package: "PosixErrors")]
        ),
    ]
)
