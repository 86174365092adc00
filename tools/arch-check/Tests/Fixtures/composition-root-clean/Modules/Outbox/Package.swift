// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Outbox",
    products: [.library(name: "Outbox", targets: ["Outbox"])],
    dependencies: [.package(path: "../../Interfaces/OutboxInterface")],
    targets: [
        .target(
            name: "Outbox",
            dependencies: [.product(name: "OutboxInterface", package: "OutboxInterface")]
        )
    ]
)
