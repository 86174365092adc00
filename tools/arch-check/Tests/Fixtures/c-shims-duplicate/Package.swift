// swift-tools-version:6.0
// Fixture: breaks `c-shims` once (two packages declare libsqlite3).
import PackageDescription

let package = Package(name: "CShimsDuplicateRoot")
