import Uploads

/// A fake for tests.
public struct FakeUploader {}
