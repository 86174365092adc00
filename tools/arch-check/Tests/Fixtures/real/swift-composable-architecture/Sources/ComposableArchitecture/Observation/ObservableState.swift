import Foundation
#if !os(visionOS)
#else
#endif
