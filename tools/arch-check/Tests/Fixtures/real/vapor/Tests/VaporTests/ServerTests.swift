import NIOHTTP1
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vapor
import AsyncHTTPClient
import NIOCore
import NIOFoundationEssentialsCompat
import NIOPosix
import NIOConcurrencyHelpers
import HTTPTypes
import NIOSSL
import Atomics
import Testing
import VaporTesting
import NIOHTTPTypesHTTP1
import X509
import SwiftASN1
