import Foundation
import ShareKitIntake
import ShareKitIntakeInterface
import ShareKitSystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Where keys and tokens live, no load reads a file: by its path, through a
/// symbolic link or `..`, nor as standard input; a file beside such a place
/// loads as usual.
@Suite("protected places are never read")
struct ProtectedPlacesTests {
    /// A fake home with `.ssh/id_ed25519` and an intake that protects the home's usual places.
    struct Home {
        let fixture: IntakeFixture
        let home: String
        let key: String

        init(standardInput: Int32 = 0) throws {
            fixture = try IntakeFixture()
            home = fixture.temporary.file("home")
            try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
            key = home + "/.ssh/id_ed25519"
            try Data("FAKE KEY\n".utf8).write(to: URL(fileURLWithPath: key))
            intake = FileShareIntake(
                catalog: fixture.catalog, sniffer: MagicSniffer(), standardInputDescriptor: standardInput,
                protectedPlaces: ProtectedPlaces.usualSecrets(environment: ["HOME": home]))
        }

        let intake: FileShareIntake

        func load(_ path: String) async -> IntakeError? {
            do throws(IntakeError) {
                _ = try await intake.load(
                    [.file(path: path)], into: fixture.destination, policy: IntakePolicy(), progress: nil)
                return nil
            } catch {
                return error
            }
        }
    }

    @Test("the key by its path, through a link named like a photo, through .., and a key file's folder twin")
    func refused() async throws {
        let home = try Home()
        defer { home.fixture.remove() }
        let link = home.fixture.temporary.file("holiday.jpg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: home.key)
        let dotted = home.home + "/Pictures/../.ssh/id_ed25519"
        try FileManager.default.createDirectory(atPath: home.home + "/Pictures", withIntermediateDirectories: true)
        for path in [home.key, link, dotted] {
            #expect(await home.load(path) == .protectedFile(item: path, place: home.home + "/.ssh"), "\(path)")
        }
        #expect(try home.fixture.copies().isEmpty, "no copy was begun")
        // A name that only begins like a protected one is not in it.
        let beside = home.home + "/.sshnotes.txt"
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: beside))
        #expect(await home.load(beside) == nil)
    }

    @Test("a protected place that is itself a link to elsewhere still protects what it holds")
    func linkedPlace() async throws {
        let fixture = try IntakeFixture()
        defer { fixture.remove() }
        let elsewhere = fixture.temporary.file("keys-disk")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let key = elsewhere + "/id_rsa"
        try Data("FAKE KEY\n".utf8).write(to: URL(fileURLWithPath: key))
        let home = fixture.temporary.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home + "/.ssh", withDestinationPath: elsewhere)
        let intake = FileShareIntake(
            catalog: fixture.catalog, sniffer: MagicSniffer(),
            protectedPlaces: ProtectedPlaces.usualSecrets(environment: ["HOME": home]))
        let error = await #expect(throws: IntakeError.self) {
            try await intake.load([.file(path: key)], into: fixture.destination, policy: IntakePolicy(), progress: nil)
        }
        #expect(error == .protectedFile(item: key, place: home + "/.ssh"))
    }

    @Test("standard input redirected from the key is refused too")
    func standardInput() async throws {
        let probe = try Home()
        defer { probe.fixture.remove() }
        let descriptor = open(probe.key, O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let home = Home(reusing: probe, standardInput: descriptor)
        let error = await #expect(throws: IntakeError.self) {
            try await home.intake.load(
                [.standardInput], into: home.fixture.destination, policy: IntakePolicy(), progress: nil)
        }
        #expect(error == .protectedFile(item: "standard input", place: probe.home + "/.ssh"))
    }

    @Test("places: component-wise, trailing slashes and relative paths ignored, the usual ones under HOME and XDG")
    func places() {
        let places = ProtectedPlaces(["/a/b/", "relative", "", "/a/b"])
        #expect(places.paths == ["/a/b"])
        #expect(places.place(containing: "/a/b/c") == "/a/b")
        #expect(places.place(containing: "/a/bc") == nil)
        let usual = ProtectedPlaces.usualSecrets(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/c"])
        for path in ["/h/.ssh/id_rsa", "/h/.gnupg/x", "/h/.aws/credentials", "/h/.netrc", "/c/gh/hosts.yml"] {
            #expect(usual.place(containing: path) != nil, "\(path)")
        }
        #expect(usual.place(containing: "/h/Pictures/cat.jpg") == nil)
        #expect(ProtectedPlaces.usualSecrets(environment: ["HOME": "/"]).place(containing: "/home/a.txt") == nil)
    }
}

extension ProtectedPlacesTests.Home {
    /// The same home, read through another standard input.
    init(reusing other: Self, standardInput: Int32) {
        fixture = other.fixture
        home = other.home
        key = other.key
        intake = FileShareIntake(
            catalog: other.fixture.catalog, sniffer: MagicSniffer(), standardInputDescriptor: standardInput,
            protectedPlaces: ProtectedPlaces.usualSecrets(environment: ["HOME": other.home]))
    }
}
