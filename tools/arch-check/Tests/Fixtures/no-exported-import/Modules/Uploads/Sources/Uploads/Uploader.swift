import Foundation
@_exported public import UploadsInterface

/// Uploads parts.
public struct Uploader: Uploading {}
