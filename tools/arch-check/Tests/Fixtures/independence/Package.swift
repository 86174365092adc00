// swift-tools-version:6.0
// Fixture: breaks `independence` once (Uploads imports the Messages module).
import PackageDescription

let package = Package(name: "IndependenceRoot")
