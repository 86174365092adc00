public import NIOCore
import HTTPTypes
