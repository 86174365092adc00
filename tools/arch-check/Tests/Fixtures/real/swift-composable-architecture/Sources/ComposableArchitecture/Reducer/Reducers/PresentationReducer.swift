@_spi(Reflection) import CasePaths
import Combine
