import Foundation

/// Uploads parts.
public protocol Uploading { func upload() }
