// swift-tools-version:6.0
// Fixture: breaks `layers` once (an interface imports a module).
import PackageDescription

let package = Package(name: "LayersRoot")
