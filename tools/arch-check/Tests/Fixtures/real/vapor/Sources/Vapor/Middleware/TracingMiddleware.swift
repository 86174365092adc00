import HTTPTypes
public import Tracing
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
