import NIOCore
public import HTTPTypes
import NIOConcurrencyHelpers
