// swift-tools-version: 6.0
// The glue every fuzzer shares: hands the process over to libFuzzer's
// driver. Not part of the root package; see fuzz/README.md.
import PackageDescription

let package = Package(
    name: "FuzzSupport",
    products: [.library(name: "FuzzSupport", targets: ["FuzzSupport"])],
    targets: [.target(name: "FuzzSupport")],
    swiftLanguageModes: [.v6]
)
