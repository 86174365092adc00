import Foundation
import ShareKitWireContract
import Testing

/// The answer types are what the clients decode, from a server that may be
/// hostile: what a client acts on is required and typed, what it does not
/// read never fails an answer. These pin that reading (docs/security.md).
@Suite("Answers as the clients read them")
struct AnswerDecodingTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test("a message needs only id and channel_id; a negative attachment size is zero")
    func message() throws {
        let envelope = try Self.decode(
            MessageEnvelope.self,
            #"{"message":{"id":"m","channel_id":"c","text":7,"attachments":[{"upload_id":"u","size":-5}]}}"#)
        #expect(envelope.message.id == "m")
        #expect(envelope.message.threadID == nil)
        #expect(envelope.message.text == "")
        #expect(
            envelope.message.attachments == [
                AttachmentBody(uploadID: "u", fileName: "", contentType: "", size: 0, sha256: "")
            ])
        #expect(throws: DecodingError.self) {
            try Self.decode(MessageEnvelope.self, #"{"message":{"channel_id":"c"}}"#)
        }
        #expect(throws: DecodingError.self) {
            try Self.decode(MessageEnvelope.self, #"{"message":{"id":"m","channel_id":"c","thread_id":1}}"#)
        }
        #expect(throws: DecodingError.self) {
            try Self.decode(
                MessageEnvelope.self,
                #"{"message":{"id":"m","channel_id":"c","attachments":[{"upload_id":"u","size":"1"}]}}"#)
        }
    }

    @Test("a token answer without token_type is DPoP; a lifetime of another type fails")
    func tokens() throws {
        let pair = try Self.decode(
            TokenPair.self,
            #"{"session_id":"s","access_token":"a","refresh_token":"r","expires_in":1,"refresh_expires_in":2}"#)
        #expect(pair.tokenType == "DPoP")
        #expect(throws: DecodingError.self) {
            try Self.decode(
                TokenPair.self,
                #"{"session_id":"s","access_token":"a","refresh_token":"r","expires_in":"1","refresh_expires_in":2}"#)
        }
    }

    @Test("upload answers need only what the uploader reads")
    func uploads() throws {
        let status = try Self.decode(
            UploadStatus.self, #"{"upload_state":"pending","received_parts":[1,3],"size":"x"}"#)
        #expect(status.uploadState == "pending" && status.receivedParts == [1, 3] && status.size == 0)
        #expect(throws: DecodingError.self) { try Self.decode(UploadStatus.self, #"{"upload_state":"pending"}"#) }
        #expect(try Self.decode(UploadCompleted.self, #"{"sha256":null}"#).sha256 == nil)
        #expect(throws: DecodingError.self) { try Self.decode(UploadCompleted.self, #"{"sha256":1}"#) }
    }

    @Test("limits may leave out the part size and recent targets")
    func limits() throws {
        let limits = try Self.decode(
            InstanceLimits.self, #"{"file_max_upload_bytes":10,"message_max_attachments":2}"#)
        #expect(limits.uploadPartSize == nil && limits.recentTargets == nil && limits.acceptedContentTypes == nil)
    }

    @Test("a preview is strict: mode full or names, thread_title present; a bad web_url is dropped")
    func preview() throws {
        let preview = try Self.decode(
            PushPreviewBody.self,
            #"{"mode":"names","sender_name":"a","channel_name":"c","thread_title":null,"web_url":3}"#)
        #expect(preview.threadTitle == nil && preview.webURL == nil)
        #expect(throws: DecodingError.self) {
            try Self.decode(
                PushPreviewBody.self, #"{"mode":"none","sender_name":"a","channel_name":"c","thread_title":null}"#)
        }
        #expect(throws: DecodingError.self) {
            try Self.decode(PushPreviewBody.self, #"{"mode":"full","sender_name":"a","channel_name":"c"}"#)
        }
    }
}
