import XCTest
import _InstructionCounter
  #if os(macOS)
  #endif
