import Testing
@testable import Uploads
import UploadsTesting

@Test func uploads() {}
