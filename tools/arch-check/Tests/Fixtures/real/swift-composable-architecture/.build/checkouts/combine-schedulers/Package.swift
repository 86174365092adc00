// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/combine-schedulers: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "combine-schedulers",
    products: [
        .library(name: "CombineSchedulers", targets: ["CombineSchedulers"]),
    ],
    targets: [
        .target(name: "CombineSchedulers"),
    ]
)
