import Foundation
import MessagesInterface
import UploadsInterface

/// Uploads parts.
public struct Uploader: Uploading {}
