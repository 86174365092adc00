// swift-tools-version:6.0
// Fixture: breaks `layers` once (an interface depends on a support package).
import PackageDescription

let package = Package(name: "LayersInterfaceSupportRoot")
