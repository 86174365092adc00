import HTTPTypes
import Metrics
import NIOCore
import NIOHTTP1
