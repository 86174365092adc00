import HTTPTypes
import NIOCore
