// swift-tools-version:6.0
// Fixture: breaks `layers` once (a support package imports a module).
import PackageDescription

let package = Package(name: "LayersSupportRoot")
