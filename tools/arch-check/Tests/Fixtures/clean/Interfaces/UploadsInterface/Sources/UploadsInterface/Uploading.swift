#if canImport(FoundationNetworking)
import FoundationNetworking
#else
import Foundation
#endif

/// Uploads files.
public protocol Uploading: Sendable {}
