import Foundation
public import Storage

/// Uploads into a store.
public protocol Uploading { func upload(into store: Store) }
