import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share targets` and `share send` into Matrix rooms, read back by another
/// member of the rooms: event types, bodies, media bytes.
@Suite(.serialized) struct MatrixSendTests {
    /// A logged-in person in three rooms another user made: one to post in
    /// (with an alias), one where posting needs a higher power level, one
    /// end-to-end encrypted.
    struct Rooms {
        let fixture: MatrixShareFixture
        let sam: MatrixPeer
        let team: String
        let teamAlias: String
        let announcements: String
        let secret: String

        init(server: TemporarySynapse? = nil) throws {
            fixture = try MatrixShareFixture(server: server)
            sam = try MatrixPeer.register(on: fixture.server, prefix: "sam", password: "sam-pass")
            let alias = "team-" + String(UUID().uuidString.prefix(6)).lowercased()
            teamAlias = "#\(alias):localhost"
            let invite = [fixture.person.userID]
            team = try sam.createRoom(name: "Team chat", alias: alias, invite: invite)
            announcements = try sam.createRoom(
                name: "Announcements", invite: invite,
                powerLevels: ["events": ["m.room.message": 50]])
            secret = try sam.createRoom(name: "Secret plans", invite: invite, encrypted: true)
            for room in [team, announcements, secret] { try fixture.person.join(room) }
            let login = try fixture.login()
            guard login.status == 0 else { throw FixtureFailure("share login: \(login.stderr)") }
        }
    }

    @Test func targetsOfferWritableRoomsByNameAndAliasPrefixFirst() throws {
        let rooms = try Rooms()
        defer { rooms.fixture.close() }
        let byName = try rooms.fixture.share(["targets", "--search", "team"])
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(byName.stdout.contains("Team chat"), "\(byName.stdout)")
        #expect(byName.stdout.contains(rooms.team), "\(byName.stdout)")
        let all = try rooms.fixture.share(["targets", "--search", "a"])
        #expect(!all.stdout.contains("Announcements"), "read-only room offered: \(all.stdout)")
        #expect(!all.stdout.contains("Secret plans"), "encrypted room offered: \(all.stdout)")
        let prefix = try rooms.fixture.share(["targets", "--search", "an"])
        // "Announcements" is read only; nothing else starts with "an", and "Team chat" contains no "an".
        #expect(!prefix.stdout.contains("Announcements"))
    }

    @Test func textAndLinkArriveOnceAsMText() throws {
        let rooms = try Rooms()
        defer { rooms.fixture.close() }
        let text = try rooms.fixture.share(["send", "--text", "hello from ShareKit", "--to", rooms.teamAlias])
        #expect(text.status == 0, "\(text.stderr)")
        let link = try rooms.fixture.share(
            ["send", "https://example.org/spec?x=1", "--comment", "have a look", "--to", rooms.team])
        #expect(link.status == 0, "\(link.stderr)")
        let events = try rooms.sam.messages(in: rooms.team)
        let bodies = events.compactMap { ($0["content"] as? [String: Any])?["body"] as? String }
        #expect(bodies.filter { $0 == "hello from ShareKit" }.count == 1, "\(bodies)")
        #expect(
            bodies.filter { $0.contains("https://example.org/spec?x=1") && $0.contains("have a look") }.count == 1,
            "\(bodies)")
        #expect(events.allSatisfy { ($0["content"] as? [String: Any])?["msgtype"] as? String == "m.text" })
        #expect(events.allSatisfy { $0["sender"] as? String == rooms.fixture.person.userID })
    }

    @Test func aFiveMiBFileAndAPNGArriveOnceWithTheirBytesAndInfo() throws {
        let rooms = try Rooms()
        defer { rooms.fixture.close() }
        let big = rooms.fixture.home.file("report.bin")
        var bytes = [UInt8](repeating: 0, count: 5 * 1024 * 1024)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
        try Data(bytes).write(to: URL(fileURLWithPath: big))
        let png = rooms.fixture.home.file("dot.png")
        let picture = QuadrantPicture()
        try Data(picture.png()).write(to: URL(fileURLWithPath: png))
        let sent = try rooms.fixture.share(["send", big, png, "--comment", "two files", "--to", rooms.team])
        #expect(sent.status == 0, "\(sent.stderr)")
        let events = try rooms.sam.messages(in: rooms.team)
        let contents = events.compactMap { $0["content"] as? [String: Any] }
        // The comment is the caption of the last file (Synapse advertises v1.10 and later).
        #expect(contents.map { $0["msgtype"] as? String } == ["m.file", "m.image"], "\(contents)")
        guard contents.count == 2 else { return }
        let file = contents[0]
        #expect(file["body"] as? String == "report.bin")
        #expect((file["info"] as? [String: Any])?["size"] as? Int == bytes.count)
        #expect(try rooms.sam.download(file["url"] as? String ?? "") == Data(bytes))
        let image = contents[1]
        let info = image["info"] as? [String: Any] ?? [:]
        #expect(image["body"] as? String == "two files")
        #expect(image["filename"] as? String == "dot.png")
        #expect(info["mimetype"] as? String == "image/png")
        #expect(info["w"] as? Int == picture.width && info["h"] as? Int == picture.height, "\(info)")
        #expect(try rooms.sam.download(image["url"] as? String ?? "") == Data(picture.png()))
    }

    @Test func aFileWithACommentIsOneEventWhoseBodyIsTheCaption() throws {
        let rooms = try Rooms()
        defer { rooms.fixture.close() }
        let notes = rooms.fixture.home.file("minutes.txt")
        try Data("minutes of the meeting\n".utf8).write(to: URL(fileURLWithPath: notes))
        let sent = try rooms.fixture.share(["send", notes, "--comment", "notes from today", "--to", rooms.team])
        #expect(sent.status == 0, "\(sent.stderr)")
        let events = try rooms.sam.messages(in: rooms.team)
        #expect(events.count == 1, "\(events)")
        let content = try #require(events.first?["content"] as? [String: Any])
        #expect(content["msgtype"] as? String == "m.file")
        #expect(content["body"] as? String == "notes from today")
        #expect(content["filename"] as? String == "minutes.txt")
        #expect(try rooms.sam.download(content["url"] as? String ?? "") == Data("minutes of the meeting\n".utf8))
    }

    @Test func aTIFFPhotoArrivesAsAJPEGImageRoomMembersCanSee() throws {
        let rooms = try Rooms()
        defer { rooms.fixture.close() }
        let picture = QuadrantPicture()
        let tiff = rooms.fixture.home.file("scan.tiff")
        try Data(picture.tiff()).write(to: URL(fileURLWithPath: tiff))
        let sent = try rooms.fixture.share(["send", tiff, "--to", rooms.team])
        #expect(sent.status == 0, "\(sent.stderr)")
        let events = try rooms.sam.messages(in: rooms.team)
        #expect(events.count == 1, "\(events)")
        let content = try #require(events.first?["content"] as? [String: Any])
        #expect(content["msgtype"] as? String == "m.image", "\(content)")
        #expect(content["body"] as? String == "scan.jpg")
        let info = content["info"] as? [String: Any] ?? [:]
        #expect(info["mimetype"] as? String == "image/jpeg", "\(info)")
        #expect(info["w"] as? Int == picture.width && info["h"] as? Int == picture.height, "\(info)")
        let bytes = try rooms.sam.download(content["url"] as? String ?? "")
        #expect(info["size"] as? Int == bytes.count)
        let downloaded = rooms.fixture.home.file("downloaded.jpg")
        try bytes.write(to: URL(fileURLWithPath: downloaded))
        let decoded = try DecodedJPEG(path: downloaded, scratch: rooms.fixture.home)
        #expect(decoded.width == picture.width && decoded.height == picture.height)
        #expect(decoded.colour(x: 4, y: 4).isClose(to: picture.colour(x: 4, y: 4)))
        #expect(decoded.colour(x: 60, y: 28).isClose(to: picture.colour(x: 60, y: 28)))
    }

    @Test func aThreadOfARoomIsATargetAndTheShareArrivesInIt() throws {
        let rooms = try Rooms()
        defer { rooms.fixture.close() }
        let root = try rooms.sam.say("Release planning for Friday", in: rooms.team)
        _ = try rooms.sam.say("first reply", in: rooms.team, threadRoot: root)
        let found = try rooms.fixture.share(["targets", "--search", "release"])
        #expect(found.status == 0, "\(found.stderr)")
        let line = found.stdout.split(separator: "\n").first { $0.contains("Release planning for Friday") }
        let reference = try #require(line?.split(separator: "\t").last.map(String.init), "\(found.stdout)")
        #expect(reference == "thread:\(rooms.team)|\(root)")
        let sent = try rooms.fixture.share(["send", "--text", "into the thread", "--to", reference])
        #expect(sent.status == 0, "\(sent.stderr)")
        let event = try #require(
            try rooms.sam.messages(in: rooms.team).last {
                ($0["content"] as? [String: Any])?["body"] as? String == "into the thread"
            })
        let relation = (event["content"] as? [String: Any])?["m.relates_to"] as? [String: Any]
        #expect(relation?["rel_type"] as? String == "m.thread")
        #expect(relation?["event_id"] as? String == root)
    }

    @Test func readOnlyAndEncryptedRoomsAreRefusedAndOversizeFilesSendNothing() throws {
        let rooms = try Rooms()
        defer { rooms.fixture.close() }
        let readOnly = try rooms.fixture.share(["send", "--text", "x", "--to", rooms.announcements, "--json"])
        #expect(readOnly.status != 0)
        #expect(readOnly.stdout.contains("write_forbidden"), "\(readOnly.stdout) \(readOnly.stderr)")
        let encrypted = try rooms.fixture.share(["send", "--text", "x", "--to", rooms.secret])
        #expect(encrypted.status != 0)
        #expect(encrypted.stderr.contains("end-to-end encrypted"), "\(encrypted.stderr)")
        let uploadsBefore = rooms.fixture.server.log.components(separatedBy: "POST /_matrix/media/v3/upload").count
        let huge = rooms.fixture.home.file("huge.bin")
        FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: UInt64(TemporarySynapse.maxUploadBytes + 1))
        try handle.close()
        let oversize = try rooms.fixture.share(["send", huge, "--to", rooms.team, "--json"])
        #expect(oversize.status != 0)
        #expect(oversize.stdout.contains("\"code\":\"too_large\""), "\(oversize.stdout) \(oversize.stderr)")
        #expect(oversize.stdout.contains("10485760 bytes"), "the homeserver's m.upload.size: \(oversize.stdout)")
        #expect(try rooms.sam.messages(in: rooms.team).isEmpty)
        #expect(try rooms.sam.messages(in: rooms.announcements).isEmpty)
        let uploadsAfter = rooms.fixture.server.log.components(separatedBy: "POST /_matrix/media/v3/upload").count
        #expect(uploadsAfter == uploadsBefore, "an upload went out")
    }
}
