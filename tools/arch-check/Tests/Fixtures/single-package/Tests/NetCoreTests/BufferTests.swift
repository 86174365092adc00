import NetCore
import NetTesting
import Testing

@Test func buffer() { _ = Buffer() }
