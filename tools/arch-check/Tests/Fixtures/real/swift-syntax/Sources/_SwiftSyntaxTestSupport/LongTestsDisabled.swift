#if compiler(>=6)
private import Foundation
#else
import Foundation
#endif
