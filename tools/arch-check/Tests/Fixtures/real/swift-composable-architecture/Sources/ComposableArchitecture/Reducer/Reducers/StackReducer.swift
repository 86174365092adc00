@_spi(Reflection) import CasePaths
import Combine
import Foundation
import OrderedCollections
