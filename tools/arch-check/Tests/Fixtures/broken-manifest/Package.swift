// swift-tools-version:6.0
// Fixture: Modules/Broken has a manifest that does not compile.
import PackageDescription

let package = Package(name: "BrokenManifestRoot")
