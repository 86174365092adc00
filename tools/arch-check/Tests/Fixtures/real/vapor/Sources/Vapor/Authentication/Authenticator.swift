import NIOCore
import HTTPTypes
