import Uploads
