// swift-tools-version:6.0
// Fixture: ShareCLIKit, an app target that is no composition root, imports
// the Outbox module. Never built, only dumped.
import PackageDescription

let package = Package(
    name: "CompositionRoot",
    dependencies: [
        .package(path: "Interfaces/OutboxInterface"),
        .package(path: "Modules/Outbox"),
    ],
    targets: [
        .target(
            name: "ClientAssembly",
            dependencies: [
                .product(name: "Outbox", package: "Outbox"),
                .product(name: "OutboxInterface", package: "OutboxInterface"),
            ],
            path: "Apps/ClientAssembly"
        ),
        .target(
            name: "ShareCLIKit",
            dependencies: [
                "ClientAssembly",
                .product(name: "Outbox", package: "Outbox"),
                .product(name: "OutboxInterface", package: "OutboxInterface"),
            ],
            path: "Apps/ShareCLIKit"
        ),
        .executableTarget(
            name: "ShareCLI",
            dependencies: ["ShareCLIKit"],
            path: "Apps/ShareCLI"
        ),
        .target(
            name: "ShareServerKit",
            dependencies: [.product(name: "Outbox", package: "Outbox")],
            path: "Apps/ShareServerKit"
        ),
    ]
)
