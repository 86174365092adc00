// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Uploads",
    products: [
        .library(name: "Uploads", targets: ["Uploads"]),
        .library(name: "UploadsTesting", targets: ["UploadsTesting"]),
    ],
    dependencies: [
        .package(path: "../../Interfaces/UploadsInterface"),
        .package(path: "../../Interfaces/MessagesInterface"),
    ],
    targets: [
        .target(
            name: "Uploads",
            dependencies: [
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
            ]
        ),
        .target(name: "UploadsTesting", dependencies: ["Uploads"]),
    ]
)
