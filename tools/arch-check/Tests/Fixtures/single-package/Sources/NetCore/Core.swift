import CAtomics
#if os(Linux)
import NetPosix
#endif

public struct Buffer {}
