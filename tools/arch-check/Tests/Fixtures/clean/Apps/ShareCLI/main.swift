import Foundation
import Messages
import Uploads
public import UploadsInterface

// import Storage   <- only a comment
print("import Storage")  // only a string
