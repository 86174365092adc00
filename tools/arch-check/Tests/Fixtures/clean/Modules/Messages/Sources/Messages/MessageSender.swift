@preconcurrency import CSQLite
internal import struct Foundation.URL
import MessagesInterface; import Dispatch

/* A nested /* block */ comment:
import Uploads
*/
let query = """
    import Uploads
    """
let raw = #"import "Uploads" \(not interpolated)"#
let nested = "\(["import Uploads"].joined())"

/// Sends through SQLite.
public struct MessageSender: MessageSending {}
