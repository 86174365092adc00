#if compiler(>=6)
internal import SwiftBasicFormat
@_spi(RawSyntax) internal import SwiftSyntax
#else
import SwiftBasicFormat
@_spi(RawSyntax) import SwiftSyntax
#endif
