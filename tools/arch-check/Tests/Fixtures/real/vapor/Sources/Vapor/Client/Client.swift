import NIOCore
import Logging
public import HTTPTypes
