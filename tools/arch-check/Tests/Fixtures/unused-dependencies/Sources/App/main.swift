import Lib
import Core
import CSupport
