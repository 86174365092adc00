// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Uploads",
    products: [
        .library(name: "Uploads", targets: ["Uploads"]),
        .library(name: "UploadsTesting", targets: ["UploadsTesting"]),
    ],
    targets: [
        .target(name: "Uploads"),
        .target(name: "UploadsTesting", dependencies: ["Uploads"]),
    ]
)
