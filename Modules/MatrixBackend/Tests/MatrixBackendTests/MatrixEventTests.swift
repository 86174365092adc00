import ShareKitCore
import ShareKitTargetStoreInterface
import Testing

@testable import ShareKitMatrixBackend

/// What a room member sees of a share: the event content of a file, the
/// upload id that carries it to the daemon, and which rooms are offered.
@Suite struct MatrixEventTests {
    @Test func uploadIDCarriesTheEventContentAcrossProcesses() throws {
        let media = MatrixMedia(
            uri: "mxc://localhost/abc", fileName: "a b&c=.png", contentType: "image/png", size: 42,
            sha256: "00ff", width: 3, height: 2)
        let read = try #require(MatrixMedia(uploadID: media.uploadID))
        #expect(read == media)
        #expect(read.messageType == "m.image")
        #expect(read.content["info"]?["w"] == 3)
        #expect(read.content["info"]?["mimetype"] == "image/png")
        #expect(MatrixMedia(uploadID: "upl_123") == nil)
        #expect(MatrixMedia(uploadID: "mxc://x/y#n=a&t=b&s=-5") == nil)
        #expect(MatrixMedia(uploadID: "mxc://x/y#n=a&t=b&s=5&w=99999999&v=1")?.width == nil)
    }

    @Test func theCommentIsTheLastFilesCaptionFromV110AndAFollowingTextBefore() {
        let report = MatrixMedia(
            uri: "mxc://h/1", fileName: "report.pdf", contentType: "application/pdf", size: 9, sha256: "",
            width: nil, height: nil)
        let photo = MatrixMedia(
            uri: "mxc://h/2", fileName: "cat.png", contentType: "image/png", size: 9, sha256: "", width: 1, height: 1)
        let captioned = MatrixMessageClient.parts([report, photo], text: "look", captions: true)
        #expect(captioned.count == 2)
        #expect(captioned[0]["body"] == "report.pdf")
        #expect(captioned[1]["body"] == "look")
        #expect(captioned[1]["filename"] == "cat.png")
        let older = MatrixMessageClient.parts([photo], text: "look", captions: false)
        #expect(older.map { $0["msgtype"] } == ["m.image", "m.text"])
        #expect(older[0]["body"] == "cat.png")
        // A caption equal to the name would read as none: it stays a message of its own.
        #expect(MatrixMessageClient.parts([photo], text: "cat.png", captions: true).count == 2)
        #expect(MatrixMessageClient.parts([], text: "hi", captions: true).map { $0["msgtype"] } == ["m.text"])
    }

    @Test func captionsNeedAnAdvertisedV110OrLater() {
        #expect(MatrixMessageClient.captionsAdvertised(["r0.6.1", "v1.1", "v1.9", "v1.10"]))
        #expect(MatrixMessageClient.captionsAdvertised(["v2.0"]))
        #expect(!MatrixMessageClient.captionsAdvertised(["r0.6.1", "v1.1", "v1.9"]))
        #expect(!MatrixMessageClient.captionsAdvertised(["v1.10.1", "v1.x", "1.11", "v99999999999999999999.1", ""]))
    }

    @Test func fileTypesMapToMessageTypes() {
        func type(_ contentType: String) -> String {
            MatrixMedia(
                uri: "mxc://h/i", fileName: "f", contentType: contentType, size: 1, sha256: "", width: nil, height: nil
            )
            .messageType
        }
        #expect(type("video/mp4") == "m.video")
        #expect(type("audio/ogg") == "m.audio")
        #expect(type("application/pdf") == "m.file")
    }

    @Test func imageSizeIsReadFromPNGAndJPEGHeadersAndBoundedOtherwise() {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        png += [0, 0, 1, 0x2C, 0, 0, 0, 0xC8]
        #expect(ImageSize.of(png)?.width == 300)
        #expect(ImageSize.of(png)?.height == 200)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 17, 8, 0, 50, 0, 80, 3, 0, 0]
        #expect(ImageSize.of(jpeg)?.width == 80)
        #expect(ImageSize.of(jpeg)?.height == 50)
        #expect(ImageSize.of([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(ImageSize.of(Array(png.prefix(20))) == nil)
    }

    @Test func roomsBelowTheMessagePowerLevelOrEncryptedAreReadOnly() {
        let levels: JSONValue = [
            "type": "m.room.power_levels", "state_key": "",
            "content": ["users": ["@boss:h": 100], "events": ["m.room.message": 50], "users_default": 0],
        ]
        let name: JSONValue = ["type": "m.room.name", "state_key": "", "content": ["name": "News\u{1B}[2J"]]
        let readOnly = MatrixRoomDirectory.room(id: "!r:h", state: [levels, name], me: "@alex:h")
        #expect(!readOnly.candidate.canWrite)
        #expect(readOnly.name == "News[2J")
        #expect(MatrixRoomDirectory.room(id: "!r:h", state: [levels], me: "@boss:h").candidate.canWrite)
        let encryption: JSONValue = [
            "type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"],
        ]
        let encrypted = MatrixRoomDirectory.room(id: "!e:h", state: [encryption], me: "@alex:h").candidate
        #expect(!encrypted.canWrite)
        #expect(encrypted.channelName.hasSuffix(MatrixRoomDirectory.encryptedMark))
    }
}

/// A thread's target id, read back from what `share targets` printed (hostile: any text).
@Suite struct MatrixThreadIDTests {
    @Test func roomAndRootRoundTripAndAnythingElseIsRefused() {
        let id = MatrixThreadID(room: "!r:h", root: "$e")
        #expect(MatrixThreadID(id.text) == id)
        #expect(MatrixThreadID("!r:h") == nil)
        #expect(MatrixThreadID("!r:h|$e|x") == nil)
        #expect(MatrixThreadID("r|$e") == nil)
        #expect(MatrixThreadID("!r|$") == nil)
    }
}
