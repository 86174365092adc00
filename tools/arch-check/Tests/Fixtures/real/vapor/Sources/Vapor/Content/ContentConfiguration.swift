#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if Multipart
import MultipartKit
#endif
import NIOConcurrencyHelpers
import HTTPTypes
        #if Multipart
        #endif
