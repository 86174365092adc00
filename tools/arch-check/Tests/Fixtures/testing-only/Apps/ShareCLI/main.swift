import Uploads
import UploadsTesting

let uploader = FakeUploader()
