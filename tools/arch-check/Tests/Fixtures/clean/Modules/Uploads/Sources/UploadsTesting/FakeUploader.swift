import Uploads

/// An in-memory uploader for tests.
public struct FakeUploader {}
