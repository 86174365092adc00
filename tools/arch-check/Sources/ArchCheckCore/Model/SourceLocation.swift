/// A position in a file of the repository, as printed in diagnostics.
public struct SourceLocation: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Path relative to the repository root.
    public let file: String
    /// 1-based line.
    public let line: Int
    /// 1-based column (UTF-8 bytes).
    public let column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// Orders by file, line, column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    /// `file:line:col`.
    public var description: String { "\(file):\(line):\(column)" }
}
