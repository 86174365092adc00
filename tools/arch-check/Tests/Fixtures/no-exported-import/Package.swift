// swift-tools-version:6.0
// Fixture: breaks `no-exported-import` once (Uploads re-exports its interface).
import PackageDescription

let package = Package(name: "NoExportedImportRoot")
