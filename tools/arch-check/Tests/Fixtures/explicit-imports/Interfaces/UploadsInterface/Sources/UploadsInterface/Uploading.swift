public protocol Uploading {}
