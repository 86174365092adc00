// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Messages",
    products: [.library(name: "Messages", targets: ["Messages"])],
    dependencies: [.package(path: "../../Interfaces/MessagesInterface")],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3"),
        .target(
            name: "Messages",
            dependencies: [
                "CSQLite",
                .product(name: "MessagesInterface", package: "MessagesInterface"),
            ]
        ),
    ]
)
