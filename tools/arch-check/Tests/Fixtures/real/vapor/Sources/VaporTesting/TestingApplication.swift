import AsyncHTTPClient
public import Vapor
import NIOPosix
import NIOCore
import NIOHTTPTypesHTTP1
import Logging
import NIOHTTP1
import HTTPTypes
import NIOConcurrencyHelpers
