// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SQLiteStore",
    products: [
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "CSQLite", targets: ["CSQLite"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3"),
        .target(name: "SQLiteStore", dependencies: ["CSQLite"]),
    ]
)
