import TestCases
import XCTest
