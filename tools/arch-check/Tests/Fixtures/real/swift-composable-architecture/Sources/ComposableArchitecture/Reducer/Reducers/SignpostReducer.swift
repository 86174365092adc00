import OSLog
