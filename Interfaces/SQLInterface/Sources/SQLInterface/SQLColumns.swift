/// The column names of one result, shared by all of its rows.
///
/// Built once per statement execution; every ``SQLRow`` holds the same
/// copy-on-write storage, so naming columns costs nothing per row.
public struct SQLColumns: Sendable, Hashable {
    /// The names in result order, as the statement spells them (`AS` aliases included).
    public let names: [String]
    private let positions: [String: Int]

    /// Makes the column list of a result.
    /// - Parameter names: the names in result order.
    public init(_ names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        // With duplicate names (`SELECT a.id, b.id`) the first one wins; alias
        // the others to reach them by name, or read them by index.
        for (index, name) in names.enumerated() where positions[name] == nil {
            positions[name] = index
        }
        self.positions = positions
    }

    /// The number of columns.
    public var count: Int { names.count }

    /// The position of a column.
    /// - Parameter name: the exact name (case-sensitive).
    /// - Returns: the index of the first column with that name, or nil.
    public func index(of name: String) -> Int? { positions[name] }
}
