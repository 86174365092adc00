// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/xctest-dynamic-overlay: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "xctest-dynamic-overlay",
    products: [
        .library(name: "IssueReporting", targets: ["IssueReporting"]),
        .library(name: "IssueReportingTestSupport", targets: ["IssueReportingTestSupport"]),
    ],
    targets: [
        .target(name: "IssueReporting"),
        .target(name: "IssueReportingTestSupport"),
    ]
)
