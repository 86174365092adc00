import Foundation
import ShareKitClientTestSupport
import ShareKitInboxInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// What `share` reads and loads before it can answer: nothing a command
/// does not use.
@Suite("share loads what a command uses, when it uses it")
struct StartupTests {
    @Test("share --version does not load libcurl; share send loads it when it sends")
    func libcurlOnFirstUse() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // The dynamic loader names every library it maps (LD_DEBUG=libs, on stderr).
        let environment = fixture.sandbox.environment.merging(["LD_DEBUG": "libs"]) { $1 }
        let version = try runProcess(BuiltProducts.path("share"), ["--version"], environment: environment)
        #expect(version.status == 0)
        #expect(version.stdout.contains("(libcurl "))
        #expect(!version.stderr.contains("libcurl.so"))

        let sent = try runProcess(
            BuiltProducts.path("share"), ["send", "--text", "hi", "--to", "thread:t1"], environment: environment)
        #expect(sent.status == 0, "\(sent.stdout)")
        #expect(sent.stdout.hasPrefix("sent to "))
        #expect(sent.stderr.contains("libcurl.so"))
    }

    @Test("a text share needs no shared MIME database; a file share without one fails naming the file, keeps nothing")
    func textWithoutMIMEDatabase() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let nowhere = fixture.home.file("no-data")
        let environment = fixture.sandbox.environment.merging([
            "XDG_DATA_HOME": nowhere, "XDG_DATA_DIRS": nowhere + "/elsewhere",
        ]) { $1 }
        let text = try runProcess(
            BuiltProducts.path("share"), ["send", "--text", "no types needed", "--to", "thread:t1"],
            environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("sent to "))
        #expect(try await fixture.messages(thread: "t1").contains { ($0["text"] as? String) == "no types needed" })

        let file = fixture.home.file("notes.txt")
        try Data("a file needs a type\n".utf8).write(to: URL(fileURLWithPath: file))
        let attached = try runProcess(
            BuiltProducts.path("share"), ["send", file, "--to", "thread:t1"], environment: environment)
        #expect(attached.status == 1)
        #expect(attached.stderr.contains(file))
        #expect(attached.stderr.contains("shared MIME database was not found"))
        #expect(try fixture.scanInbox().entries.isEmpty)
    }

    /// Runs `share --version`, a text share, a queued text share ("hi" and
    /// "later" to thread:t1) and one daemon pass, and expects each to succeed
    /// without loading any of `libraries`.
    /// - Parameters:
    ///   - environment: the fixture's environment with `LD_DEBUG=libs`.
    ///   - libraries: file names as the dynamic loader prints them.
    /// - Throws: when a program cannot be started.
    static func expectOrdinaryRuns(environment: [String: String], toLoadNone libraries: [String]) throws {
        let runs = [
            ("share --version", try runProcess(BuiltProducts.path("share"), ["--version"], environment: environment)),
            (
                "share send --text",
                try runProcess(
                    BuiltProducts.path("share"), ["send", "--text", "hi", "--to", "thread:t1"],
                    environment: environment)
            ),
            (
                "share send --queue --text",
                try runProcess(
                    BuiltProducts.path("share"), ["send", "--queue", "--text", "later", "--to", "thread:t1"],
                    environment: environment)
            ),
            (
                "share-daemon --once",
                try runProcess(BuiltProducts.path("share-daemon"), ["--once"], environment: environment)
            ),
        ]
        for (name, run) in runs {
            #expect(run.status == 0, "\(name): \(run.stdout)")
            for library in libraries {
                #expect(!run.stderr.contains(library), "\(name) loaded \(library)")
            }
        }
    }

    /// libsecret and the GLib libraries it brings, as the dynamic loader
    /// names them: only the Secret Service keychain backend uses them.
    static let secretServiceLibraries = ["libsecret-1.so", "libglib-2.0.so", "libgio-2.0.so", "libgobject-2.0.so"]

    @Test("share --version, a text share, a daemon pass with the file keychain map no libsecret; Secret Service does")
    func libsecretOnFirstUse() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        let environment = fixture.sandbox.environment.merging(["LD_DEBUG": "libs"]) { $1 }
        try Self.expectOrdinaryRuns(environment: environment, toLoadNone: Self.secretServiceLibraries)
        #expect(try await fixture.messages(thread: "t1").contains { ($0["text"] as? String) == "hi" })

        // The Secret Service backend opens libsecret when it is chosen; without a
        // session bus it then fails naming the Secret Service (exit status not 0).
        let secretService = try runProcess(
            BuiltProducts.path("share"), ["send", "--text", "hi", "--to", "thread:t1"],
            environment: environment.merging([
                "SHAREKIT_KEYCHAIN": "secret-service", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
            ]) { $1 })
        #expect(secretService.stderr.contains("libsecret-1.so"), "the Secret Service backend did not load libsecret")
        #expect(secretService.status != 0)
        #expect(secretService.stderr.contains("Secret Service"))
    }

    /// The libraries only a photo conversion (the codecs) or a file's sniff
    /// (libmagic) or the MIME database's XML fallback (libxml2) needs, as the
    /// dynamic loader names them.
    static let conversionLibraries = [
        "libheif.so", "libwebp.so", "libtiff.so", "libpng16.so", "libgif.so", "libjpeg.so", "libmagic.so", "libxml2.so",
    ]

    @Test(
        "share --version, a text share and a daemon pass map no codec, libmagic, libxml2; a HEIC share maps the codecs",
        .enabled(if: PhotoSendTests.tools, Comment(rawValue: PhotoSendTests.missing)))
    func codecsOnFirstUse() async throws {
        let fixture = try await ShareCLIFixture(seed: PhotoSendTests.jpegOnly)
        defer { fixture.close() }
        let environment = fixture.sandbox.environment.merging(["LD_DEBUG": "libs"]) { $1 }
        try Self.expectOrdinaryRuns(environment: environment, toLoadNone: Self.conversionLibraries)
        let texts = try await fixture.messages(thread: "t1").compactMap { $0["text"] as? String }
        #expect(texts.contains("hi") && texts.contains("later"), "\(texts)")

        let heic = try PhotoSendTests.heic(fixture)
        let photo = try runProcess(
            BuiltProducts.path("share"), ["send", heic, "--to", "thread:t1", "--verbose"], environment: environment)
        #expect(photo.status == 0, "\(photo.stdout)")
        #expect(photo.stderr.contains("image/heif converted to JPEG as IMG_0001.jpg"))
        for library in ["libheif.so", "libjpeg.so", "libmagic.so"] {
            #expect(photo.stderr.contains(library), "a HEIC share did not load \(library)")
        }
    }
}
