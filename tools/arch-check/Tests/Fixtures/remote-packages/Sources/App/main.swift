import Widgets
import WidgetsCore
import Gadgets
#if canImport(CRT)
import CRT
#elseif canImport(WASILibc)
import WASILibc
#endif
