import Testing
import UploadsTesting

@Test func fake() { _ = FakeUploader() }
