@_spi(Reflection) import CasePaths
import Foundation
