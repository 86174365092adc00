// swift-tools-version: 6.0
// Lazy libraries: a C library opened with `dlopen` when a program first
// needs it, for the C loaders of the modules that wrap optional parts of a
// program (the photo codecs, libmagic): a program that never converts a
// photo or sniffs a file never maps those libraries (docs/adr/0019). And the
// programs' exit, which waits for work on other threads inside a library
// (libcurl's start-up, the HTTP event loops) before anything is torn down.
//
// A support package (docs/adr/0003-support-layer.md): small, stable, with
// no domain logic and no dependency on anything in this repository.
import PackageDescription

let package = Package(
    name: "LazyLibrary",
    products: [
        .library(name: "CShareKitLazyLibrary", targets: ["CShareKitLazyLibrary"])
    ],
    targets: [
        .target(name: "CShareKitLazyLibrary", path: "Sources/CLazyLibrary")
    ],
    swiftLanguageModes: [.v6]
)
