public struct Uploader {}
