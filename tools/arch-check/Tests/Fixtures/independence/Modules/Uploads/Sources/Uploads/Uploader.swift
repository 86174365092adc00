// Uploads files, then tells the message sender.
import Foundation
import Messages

/// Uploads parts.
public struct Uploader {}
