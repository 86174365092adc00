import NetPosix
import NetHTTP
import NetTesting

listen()
