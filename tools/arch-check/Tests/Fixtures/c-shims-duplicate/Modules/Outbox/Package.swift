// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Outbox",
    products: [.library(name: "Outbox", targets: ["Outbox"])],
    targets: [
        // Its own copy of the SQLite shim, named by the module map only.
        .systemLibrary(name: "COutboxSQLite"),
        .target(name: "Outbox", dependencies: ["COutboxSQLite"]),
    ]
)
