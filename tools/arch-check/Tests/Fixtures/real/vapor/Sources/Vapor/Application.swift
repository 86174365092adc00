public import Configuration
import Logging
public import NIOCore
public import NIOConcurrencyHelpers
import NIOPosix
public import ServiceLifecycle
import UnixSignals
#if HTTPClient
import AsyncHTTPClient
#endif
            #if HTTPClient
            #else
            #endif
