import Integration
import TestCases
import XCTest
