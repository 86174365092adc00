// swift-tools-version:6.0
// Fixture: breaks `c-shims` once (the app imports SQLiteStore's C shim).
import PackageDescription

let package = Package(
    name: "CShimsRoot",
    dependencies: [.package(path: "Modules/SQLiteStore")],
    targets: [
        .executableTarget(
            name: "ShareServer",
            dependencies: [
                .product(name: "SQLiteStore", package: "SQLiteStore"),
                .product(name: "CSQLite", package: "SQLiteStore"),
            ],
            path: "Apps/ShareServer"
        ),
    ]
)
