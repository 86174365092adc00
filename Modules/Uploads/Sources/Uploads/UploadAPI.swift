import Foundation
import HTTPInterface
import HTTPTypes
import UploadsInterface

/// The answer of createUpload.
struct CreatedUpload {
    var uploadID: String
    var partSize: Int64
    var partsCount: Int
}

/// The answer of getUpload.
struct UploadStatus {
    var state: String
    var receivedParts: Set<Int>
}

/// JSON bodies of the upload protocol.
enum UploadJSON {
    static func object(_ response: HTTPClientResponse) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
    }

    static func int64(_ value: Any?) -> Int64? {
        if let number = value as? NSNumber { return number.int64Value }
        return nil
    }

    static func createBody(_ source: UploadSource, sha256: String) -> [UInt8] {
        let object: [String: Any] = [
            "file_name": source.fileName, "content_type": source.contentType, "size": source.size, "sha256": sha256,
        ]
        return Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    static func created(_ response: HTTPClientResponse) -> CreatedUpload? {
        guard let object = object(response), let id = object["upload_id"] as? String,
            let partSize = int64(object["part_size"]), let count = int64(object["parts_count"]), partSize > 0
        else { return nil }
        return CreatedUpload(uploadID: id, partSize: partSize, partsCount: Int(count))
    }

    static func status(_ response: HTTPClientResponse) -> UploadStatus? {
        guard let object = object(response), let state = object["upload_state"] as? String,
            let parts = object["received_parts"] as? [Any]
        else { return nil }
        return UploadStatus(state: state, receivedParts: Set(parts.compactMap { int64($0).map { Int($0) } }))
    }
}
