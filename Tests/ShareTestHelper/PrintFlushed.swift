import Foundation

/// Prints a line and flushes standard output at once, for lines a test
/// waits for while this process keeps running (stdout to a pipe is buffered).
/// - Parameter line: the line.
func printFlushed(_ line: String) {
    print(line)
    fflush(nil)
}
