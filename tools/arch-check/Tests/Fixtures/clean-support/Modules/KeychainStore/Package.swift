// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "KeychainStore",
    products: [.library(name: "KeychainStore", targets: ["KeychainStore"])],
    dependencies: [
        .package(path: "../../Interfaces/KeychainInterface"),
        .package(path: "../../Support/SecureFiles"),
    ],
    targets: [
        .target(
            name: "KeychainStore",
            dependencies: [
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "SecureFiles", package: "SecureFiles"),
            ]
        ),
    ]
)
