// swift-tools-version: 6.0
// ShareKit: the root package. It aggregates the interface, module and
// support packages by path, owns the three programs of Apps/ and every test
// target of Tests/. Module packages never see each other (they use
// interfaces and Support/ building blocks); only the composition roots
// (ClientAssembly, ShareServerKit) wire concrete implementations together
// (docs/adr/0001 and 0003).
import PackageDescription

// MARK: - Settings

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

// MARK: - Packages

let interfaces = [
    "ShareCore", "CryptoInterface", "KeychainInterface", "SharedStateInterface", "DPoPInterface",
    "SQLInterface", "HTTPInterface", "SessionsInterface", "UploadsInterface", "MessagesInterface",
    "TargetStoreInterface", "ShareInboxInterface", "OutboxInterface", "ShareIntakeInterface",
    "PushPreviewInterface", "HTTPServerInterface", "HTTPTypes", "ServerAPIInterface",
]
let modules = [
    "OpenSSLCrypto", "KeychainStore", "SharedState", "DPoP", "SQLiteStore", "HTTPTransport", "Sessions",
    "Uploads", "Messages", "TargetStore", "ShareInbox", "Outbox", "ShareIntake", "PushPreview",
    "MicroHTTPServer", "ReferenceServer", "ServerAPI",
]
// Small dependency-free building blocks with I/O, usable by modules, apps and
// tests but not by interfaces (docs/adr/0003-support-layer.md).
let support = ["SecureFiles"]

/// A product of one of the path packages (each package vends one library named like itself).
func lib(_ name: String) -> Target.Dependency { .product(name: name, package: name) }

// MARK: - Package

let package = Package(
    name: "ShareKit",
    products: [
        .executable(name: "share", targets: ["ShareCLI"]),
        .executable(name: "share-daemon", targets: ["ShareDaemon"]),
        .executable(name: "share-server", targets: ["ShareServer"]),
    ],
    dependencies: interfaces.map { .package(path: "Interfaces/\($0)") }
        + modules.map { .package(path: "Modules/\($0)") }
        + support.map { .package(path: "Support/\($0)") },
    targets: [
        // MARK: Apps: shared command-line plumbing
        .target(
            name: "AppSupport",
            dependencies: [lib("ShareCore")],
            path: "Apps/AppSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppSupportTests",
            dependencies: ["AppSupport"],
            path: "Tests/AppSupportTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Apps: the client side's composition root (share and share-daemon)
        .target(
            name: "ClientAssembly",
            dependencies: [
                "AppSupport", lib("ShareCore"), lib("CryptoInterface"), lib("OpenSSLCrypto"), lib("KeychainInterface"),
                lib("KeychainStore"), lib("SharedStateInterface"), lib("SharedState"), lib("DPoPInterface"),
                lib("DPoP"),
                lib("HTTPInterface"), lib("HTTPTypes"), lib("HTTPTransport"), lib("SessionsInterface"), lib("Sessions"),
                lib("UploadsInterface"), lib("Uploads"), lib("MessagesInterface"), lib("Messages"),
                lib("ServerAPIInterface"), lib("ServerAPI"), lib("TargetStoreInterface"), lib("TargetStore"),
                lib("PushPreviewInterface"), lib("PushPreview"), lib("ShareInboxInterface"), lib("ShareInbox"),
                lib("ShareIntakeInterface"), lib("ShareIntake"), lib("OutboxInterface"), lib("Outbox"),
                lib("SQLiteStore"), lib("SecureFiles"),
            ],
            path: "Apps/ClientAssembly",
            swiftSettings: swiftSettings
        ),

        // MARK: Apps: share (the extension)
        .target(
            name: "ShareCLIKit",
            dependencies: [
                "AppSupport", "ClientAssembly", lib("ShareCore"), lib("DPoPInterface"), lib("HTTPInterface"),
                lib("MessagesInterface"), lib("UploadsInterface"), lib("SharedStateInterface"),
                lib("ShareInboxInterface"), lib("ShareIntakeInterface"), lib("TargetStoreInterface"),
                lib("SessionsInterface"), lib("KeychainInterface"), lib("PushPreviewInterface"),
                lib("ServerAPIInterface"), lib("OutboxInterface"),
            ],
            path: "Apps/ShareCLIKit",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ShareCLI",
            dependencies: ["ShareCLIKit"],
            path: "Apps/ShareCLI",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareCLIKitTests",
            dependencies: ["ShareCLIKit", "AppSupport", "TestSupport", "ShareCLI"],
            path: "Tests/ShareCLIKitTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Apps: share-daemon (the containing app)
        .target(
            name: "ShareDaemonKit",
            dependencies: [
                "AppSupport", "ClientAssembly", lib("SecureFiles"), lib("ShareCore"), lib("HTTPInterface"),
                lib("MessagesInterface"), lib("OutboxInterface"), lib("SessionsInterface"), lib("ShareInboxInterface"),
                lib("SharedStateInterface"), lib("TargetStoreInterface"), lib("PushPreviewInterface"),
                lib("ServerAPIInterface"),
            ],
            path: "Apps/ShareDaemonKit",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ShareDaemon",
            dependencies: ["ShareDaemonKit"],
            path: "Apps/ShareDaemon",
            swiftSettings: swiftSettings
        ),

        // MARK: Apps: share-server (the reference server)
        .target(
            name: "ShareServerKit",
            dependencies: [
                "AppSupport", lib("ShareCore"), lib("ReferenceServer"), lib("HTTPServerInterface"), lib("HTTPTypes"),
                lib("MicroHTTPServer"), lib("SQLInterface"), lib("SQLiteStore"), lib("CryptoInterface"),
                lib("OpenSSLCrypto"), lib("DPoPInterface"), lib("DPoP"),
            ],
            path: "Apps/ShareServerKit",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ShareServer",
            dependencies: ["ShareServerKit"],
            path: "Apps/ShareServer",
            swiftSettings: swiftSettings
        ),

        // MARK: Test support (used only by Tests/)
        .target(
            name: "TestSupport",
            dependencies: [],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ClientTestSupport",
            dependencies: [
                lib("ServerAPI"), lib("ServerAPIInterface"), "TestSupport", "ClientAssembly", lib("ShareCore"),
                lib("CryptoInterface"),
            ],
            path: "Tests/ClientTestSupport",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ShareTestHelper",
            dependencies: [
                lib("ServerAPI"), lib("ServerAPIInterface"),
                lib("ShareCore"), lib("KeychainInterface"), lib("KeychainStore"), lib("SharedStateInterface"),
                lib("SharedState"), lib("SQLInterface"), lib("SQLiteStore"), "ClientAssembly", lib("DPoP"),
                lib("HTTPInterface"), lib("HTTPTypes"), lib("HTTPTransport"), lib("SessionsInterface"), lib("Sessions"),
                lib("UploadsInterface"), lib("Uploads"), lib("ShareInboxInterface"), lib("ShareInbox"),
                lib("ShareIntakeInterface"), lib("ShareIntake"), lib("OutboxInterface"), lib("Outbox"),
                lib("MessagesInterface"),
            ],
            path: "Tests/ShareTestHelper",
            swiftSettings: swiftSettings
        ),

        // MARK: Modules
        .testTarget(
            name: "OpenSSLCryptoTests",
            dependencies: [lib("CryptoInterface"), lib("OpenSSLCrypto"), "TestSupport"],
            path: "Tests/OpenSSLCryptoTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DPoPTests",
            dependencies: [
                lib("ShareCore"), lib("CryptoInterface"), lib("OpenSSLCrypto"), lib("DPoPInterface"), lib("DPoP"),
                lib("KeychainInterface"), lib("SharedStateInterface"), "TestSupport",
            ],
            path: "Tests/DPoPTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KeychainStoreTests",
            dependencies: [lib("KeychainInterface"), lib("KeychainStore"), "ShareTestHelper", "TestSupport"],
            path: "Tests/KeychainStoreTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharedStateTests",
            dependencies: [lib("SharedStateInterface"), lib("SharedState"), "ShareTestHelper", "TestSupport"],
            path: "Tests/SharedStateTests",
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: [lib("SQLInterface"), lib("SQLiteStore"), "ShareTestHelper", "TestSupport"],
            path: "Tests/SQLiteStoreTests",
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "MicroHTTPServerTests",
            dependencies: [lib("HTTPServerInterface"), lib("HTTPTypes"), lib("MicroHTTPServer"), "TestSupport"],
            path: "Tests/MicroHTTPServerTests",
            swiftSettings: swiftSettings
        ),

        // MARK: The reference server, end to end (the share-server process over loopback)
        .testTarget(
            name: "ReferenceServerTests",
            dependencies: [
                "ShareServer", "ShareServerKit", "TestSupport", lib("ShareCore"), lib("CryptoInterface"),
                lib("OpenSSLCrypto"), lib("DPoPInterface"), lib("DPoP"), lib("ReferenceServer"),
            ],
            path: "Tests/ReferenceServerTests",
            swiftSettings: swiftSettings
        ),

        // MARK: The HTTP client on libcurl and DPoP signing (loopback servers, share-server)
        .testTarget(
            name: "HTTPTransportTests",
            dependencies: [
                "ShareServer", "TestSupport", lib("HTTPInterface"), lib("HTTPTypes"), lib("HTTPTransport"),
                lib("HTTPServerInterface"),
                lib("MicroHTTPServer"), lib("DPoPInterface"), lib("DPoP"), lib("CryptoInterface"), lib("OpenSSLCrypto"),
            ],
            path: "Tests/HTTPTransportTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Session tokens: refresh single flight in and across processes (share-server, helper processes)
        .testTarget(
            name: "SessionsTests",
            dependencies: [
                "ShareServer", "ShareTestHelper", "TestSupport", "ClientTestSupport", "ClientAssembly",
                lib("SessionsInterface"),
                lib("Sessions"), lib("KeychainInterface"), lib("KeychainStore"), lib("SharedStateInterface"),
                lib("SharedState"), lib("HTTPInterface"), lib("HTTPTypes"), lib("HTTPTransport"), lib("DPoP"),
            ],
            path: "Tests/SessionsTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Uploads: streaming, resumable uploads (share-server, helper processes killed mid-upload)
        .testTarget(
            name: "UploadsTests",
            dependencies: [
                lib("ServerAPI"), lib("ServerAPIInterface"), lib("OpenSSLCrypto"),
                "ShareServer", "ShareTestHelper", "TestSupport", "ClientTestSupport", "ClientAssembly",
                lib("UploadsInterface"),
                lib("Uploads"), lib("SessionsInterface"), lib("Sessions"), lib("KeychainInterface"),
                lib("SharedStateInterface"), lib("SharedState"), lib("HTTPInterface"), lib("HTTPTypes"),
                lib("HTTPTransport"), lib("DPoP"), lib("CryptoInterface"),
            ],
            path: "Tests/UploadsTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Messages: the Sender, uploads then the message (share-server)
        .testTarget(
            name: "MessagesTests",
            dependencies: [
                lib("ServerAPI"), lib("ServerAPIInterface"),
                "ShareServer", "ShareTestHelper", "TestSupport", "ClientTestSupport", "ClientAssembly",
                lib("MessagesInterface"),
                lib("Messages"), lib("UploadsInterface"), lib("Uploads"), lib("SessionsInterface"), lib("Sessions"),
                lib("KeychainInterface"), lib("SharedState"), lib("HTTPInterface"), lib("HTTPTypes"),
                lib("HTTPTransport"), lib("DPoP"), lib("ShareCore"), lib("CryptoInterface"),
            ],
            path: "Tests/MessagesTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Share intake: kinds, content types (libmagic, the shared MIME database), streamed copies
        .testTarget(
            name: "ShareIntakeTests",
            dependencies: [lib("ShareCore"), lib("ShareIntakeInterface"), lib("ShareIntake"), "TestSupport"],
            path: "Tests/ShareIntakeTests",
            swiftSettings: swiftSettings
        ),

        // MARK: The write-ahead share inbox (helper processes killed while writing)
        .testTarget(
            name: "ShareInboxTests",
            dependencies: [
                lib("ShareCore"), lib("ShareInboxInterface"), lib("ShareInbox"), lib("SharedStateInterface"),
                lib("SharedState"), "ShareTestHelper", "TestSupport",
            ],
            path: "Tests/ShareInboxTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Targets: resolution, search, recent targets (share-server)
        .testTarget(
            name: "TargetStoreTests",
            dependencies: [
                lib("ServerAPI"), lib("ServerAPIInterface"),
                "ShareServer", "TestSupport", "ClientTestSupport", "ClientAssembly", lib("ShareCore"),
                lib("TargetStoreInterface"), lib("TargetStore"), lib("SharedStateInterface"), lib("SharedState"),
                lib("SessionsInterface"), lib("Sessions"), lib("HTTPInterface"), lib("HTTPTransport"),
                lib("KeychainInterface"), lib("HTTPTypes"),
            ],
            path: "Tests/TargetStoreTests",
            swiftSettings: swiftSettings
        ),

        // MARK: The daemon's outbox: SQLite queue, takeover, exactly once (share-server, SIGKILL)
        .testTarget(
            name: "OutboxTests",
            dependencies: [
                "ShareServer", "ShareTestHelper", "TestSupport", "ClientTestSupport", "ClientAssembly",
                lib("ShareCore"), lib("OutboxInterface"), lib("Outbox"), lib("ShareInboxInterface"), lib("ShareInbox"),
                lib("MessagesInterface"), lib("Messages"), lib("UploadsInterface"), lib("SQLInterface"),
                lib("SQLiteStore"), lib("SharedStateInterface"), lib("SharedState"), lib("SessionsInterface"),
                lib("Sessions"), lib("HTTPInterface"), lib("KeychainInterface"), lib("Uploads"), lib("ServerAPI"),
                lib("HTTPTypes"),
            ],
            path: "Tests/OutboxTests",
            swiftSettings: swiftSettings
        ),

        // MARK: End to end: share send, share inbox and share-daemon as processes against share-server
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ShareCLI", "ShareDaemon", "ShareServer", "ShareTestHelper", "TestSupport", "ClientTestSupport",
                "ClientAssembly", lib("ShareCore"), lib("ShareInboxInterface"), lib("ShareInbox"),
                lib("SessionsInterface"), lib("Sessions"), lib("KeychainInterface"), lib("SharedStateInterface"),
                lib("HTTPInterface"), lib("TargetStoreInterface"), lib("TargetStore"), lib("SharedState"),
                lib("SQLiteStore"), lib("SQLInterface"), lib("PushPreview"), lib("PushPreviewInterface"),
            ],
            path: "Tests/EndToEndTests",
            swiftSettings: swiftSettings
        ),

        // MARK: share login, logout and status (the share program as a process, share-server)
        .testTarget(
            name: "ShareLoginTests",
            dependencies: [
                "ShareCLI", "ShareServer", "TestSupport", "ClientTestSupport", "ClientAssembly",
                lib("SessionsInterface"), lib("Sessions"), lib("KeychainInterface"), lib("SharedStateInterface"),
                lib("SharedState"), lib("HTTPInterface"), lib("MessagesInterface"),
            ],
            path: "Tests/ShareLoginTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Push preview: share notify, the notifier and the daemon's push service (share-server)
        .testTarget(
            name: "PushPreviewTests",
            dependencies: [
                lib("ServerAPI"), lib("ServerAPIInterface"),
                "ShareCLI", "ShareDaemon", "ShareServer", "TestSupport", "ClientTestSupport", "ClientAssembly",
                lib("ShareCore"), lib("PushPreviewInterface"), lib("PushPreview"), lib("SessionsInterface"),
                lib("Sessions"), lib("KeychainInterface"), lib("SharedStateInterface"), lib("SharedState"),
                lib("HTTPInterface"), lib("HTTPTypes"), lib("SQLInterface"), lib("SQLiteStore"),
            ],
            path: "Tests/PushPreviewTests",
            swiftSettings: swiftSettings
        ),

        // MARK: The target picker, share targets and the desktop entry (the share program in a pseudo-terminal)
        .testTarget(
            name: "PickerTests",
            dependencies: [
                "ShareCLI", "ShareCLIKit", "ShareServer", "TestSupport", "ClientTestSupport", "ClientAssembly",
                lib("ShareCore"), lib("ShareInboxInterface"), lib("ShareInbox"), lib("SessionsInterface"),
                lib("Sessions"), lib("KeychainInterface"), lib("SharedStateInterface"), lib("SharedState"),
                lib("HTTPInterface"), lib("TargetStoreInterface"), lib("TargetStore"), lib("ShareIntake"),
            ],
            path: "Tests/PickerTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Layout (depends on every package so that each one is compiled)
        .testTarget(
            name: "LayoutTests",
            dependencies: ["TestSupport"] + (interfaces + modules + support).map(lib),
            path: "Tests/LayoutTests",
            swiftSettings: swiftSettings
        ),

        // MARK: Interfaces and shared values
        .testTarget(
            name: "ServerAPITests",
            dependencies: [
                lib("ServerAPI"), lib("ServerAPIInterface"), lib("HTTPInterface"), lib("HTTPTypes"),
                lib("SessionsInterface"), lib("KeychainInterface"),
            ],
            path: "Tests/ServerAPITests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareCoreTests",
            dependencies: [lib("ShareCore")],
            path: "Tests/ShareCoreTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SecureFilesTests",
            dependencies: [lib("SecureFiles")],
            path: "Tests/SecureFilesTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharedStateInterfaceTests",
            dependencies: [lib("SharedStateInterface"), lib("KeychainInterface")],
            path: "Tests/SharedStateInterfaceTests",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
