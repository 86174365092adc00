import Foundation
import ShareKitWireContract
import Testing

@testable import ShareKitReferenceServer

/// The seed file an operator starts the server with: read whole, and every
/// mistake named by its member, never a trap or a half-seeded server.
@Suite("ServerSeed: the seed file, its settings and its mistakes")
struct ServerSeedTests {
    static func seed(_ extra: String = "", channels: String? = nil) -> Data {
        let channelList =
            channels
            ?? #"[{"id":"c1","name":"Gateway","readers":["sam"],"writers":["alex"]},{"id":"c2","name":"Ideas","kind":"forum"}]"#
        return Data(
            #"""
            {"users":[{"username":"alex","password":"pw-a"},{"username":"sam","password":"pw-s"}],
             "spaces":[{"id":"s1","name":"Lab","channels":\#(channelList)}],
             "threads":[{"id":"t1","channel_id":"c1","title":"Plans"}]\#(extra)}
            """#.utf8)
    }

    @Test("a seed gives its users, channels, threads and settings; omitted settings keep their defaults")
    func valid() throws {
        let seed = try ServerSeed.parse(
            Self.seed(
                #","limits":{"file_max_upload_bytes":2048,"upload_part_size":1024},"login_throttle":{"failures_per_user":3}"#
            ))
        #expect(seed.users.map(\.username) == ["alex", "sam"])
        #expect(seed.spaces.first?.channels.map(\.kind) == ["chat", "forum"])
        #expect(seed.spaces.first?.channels.first?.writers == ["alex"])
        #expect(seed.threads.map(\.channelID) == ["c1"])
        #expect(seed.settings.fileMaxUploadBytes == 2048 && seed.settings.uploadPartSize == 1024)
        #expect(seed.settings.loginThrottle.failuresPerUser == 3)
        #expect(seed.settings.messageMaxAttachments == InstanceSettings().messageMaxAttachments)
        // The pending-upload quota follows a larger upload limit.
        let large = try ServerSeed.parse(Self.seed(#","limits":{"file_max_upload_bytes":4294967296}"#))
        #expect(large.settings.uploadPendingBytesPerUser == 4_294_967_296)
    }

    @Test(
        "each mistake is refused with the member it is about",
        arguments: [
            (#","limits":{"upload_part_size":10}"#, "upload_part_size"),
            (#","limits":{"message_max_attachments":-1}"#, "positive"),
            (#","limits":{"upload_pending_bytes_per_user":5}"#, "upload_pending_bytes_per_user"),
            (#","login_throttle":{"failures_per_user":0}"#, "failures_per_user"),
            (#","login_throttle":{"base_delay_seconds":10,"max_delay_seconds":5}"#, "delay"),
            (#","accepted_content_types":["image/*"]"#, "accepted_content_types"),
            (#","tokens":{"access_ttl_seconds":"300"}"#, "access_ttl_seconds"),
            (#","limits":{"recent_targets":0}"#, "positive"),
        ])
    func refused(extra: String, named: String) {
        #expect {
            _ = try ServerSeed.parse(Self.seed(extra))
        } throws: { error in
            guard case .invalidSeed(let why) = error as? ReferenceServerError else { return false }
            return why.contains(named)
        }
    }

    @Test("references between members are checked: unknown users, unknown channels, duplicate ids, unknown kinds")
    func references() {
        let cases: [(Data, String)] = [
            (Self.seed(channels: #"[{"id":"c1","name":"G","writers":["nobody"]}]"#), "unknown user nobody"),
            (Self.seed(channels: #"[{"id":"c1","name":"G"},{"id":"c1","name":"H"}]"#), "c1 is used twice"),
            (Self.seed(channels: #"[{"id":"c1","name":"G","kind":"voice"}]"#), "kind must be"),
            (Self.seed(channels: #"[{"id":"c9","name":"G"}]"#), "c1"),
            (Data("not json".utf8), "seed"),
        ]
        for (data, named) in cases {
            #expect {
                _ = try ServerSeed.parse(data)
            } throws: { error in
                "\(error)".contains(named)
            }
        }
    }
}

/// Request bodies and counters the server reads from strangers.
@Suite("Hostile request input: message bodies, forms, login throttle")
struct HostileInputTests {
    @Test("the fast reader takes plain message bodies and leaves everything else to JSONDecoder")
    func messageBodies() throws {
        let plain = try #require(
            MessageBodyParser.parse(Array(#" {"text":"hi","attachments":["u1","u2"],"client_msg_id":"m-1"} "#.utf8)))
        #expect(plain.clientMsgID == "m-1" && plain.text == "hi" && plain.attachments == ["u1", "u2"])
        let nulls = try #require(
            MessageBodyParser.parse(Array(#"{"client_msg_id":"m","text":null,"attachments":null}"#.utf8)))
        #expect(nulls.text == nil && nulls.attachments == nil)
        for hostile in [
            #"{"client_msg_id":"m","client_msg_id":"n"}"#, #"{"client_msg_id":"m\u0000"}"#, #"{"text":"no id"}"#,
            #"{"client_msg_id":"m","extra":1}"#, #"{"client_msg_id":"m","text":7}"#, #"{"client_msg_id":"m""#, "",
        ] {
            #expect(MessageBodyParser.parse(Array(hostile.utf8)) == nil, "\(hostile)")
        }
        #expect(MessageBodyParser.parse([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x22, 0x22, 0x7D]) == nil)
    }

    @Test("form fields are percent-decoded, the last value wins, undecodable ones are left out")
    func forms() {
        let fields = WebPage.form(Array("user=alex&note=a+b%26c&user=sam&bad=%zz&empty".utf8))
        #expect(fields == ["user": "sam", "note": "a b&c", "empty": ""])
    }

    @Test("the throttle's delay doubles per failure over the threshold, capped, without overflow")
    func throttleArithmetic() {
        var policy = InstanceSettings.LoginThrottlePolicy()
        policy.baseDelaySeconds = 2
        policy.maxDelaySeconds = 60
        #expect(LoginThrottle.blockedUntil((failures: 4, last: 1000), threshold: 5, policy: policy) == nil)
        #expect(LoginThrottle.blockedUntil((failures: 5, last: 1000), threshold: 5, policy: policy) == 1002)
        #expect(LoginThrottle.blockedUntil((failures: 7, last: 1000), threshold: 5, policy: policy) == 1008)
        #expect(LoginThrottle.blockedUntil((failures: .max, last: 1000), threshold: 5, policy: policy) == 1060)
    }
}
