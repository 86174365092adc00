#if WebSockets
import NIOCore
import HTTPTypes
import NIOPosix
#endif
