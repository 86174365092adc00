/// One `name=value` pair of a query string, decoded.
public struct HTTPQueryItem: Hashable, Sendable {
    /// The decoded name.
    public var name: String
    /// The decoded value; nil when the pair had no `=` (`?flag`), empty for `?flag=`.
    public var value: String?

    /// Makes a query item.
    /// - Parameters:
    ///   - name: the decoded name.
    ///   - value: the decoded value, nil for a bare name.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// Splits a raw query string the way HTML forms encode it
    /// (`application/x-www-form-urlencoded`): pairs separated by `&`, name and
    /// value by the first `=`, `+` meaning a space, `%XX` escapes decoded.
    /// Empty pairs (`a=1&&b=2`) are skipped; a malformed escape is kept as
    /// written rather than refused, so a handler decides what is invalid.
    /// - Parameter rawQuery: the text after `?`, without the `?`.
    /// - Returns: the pairs in order; a name may repeat.
    public static func parse(_ rawQuery: some StringProtocol) -> [HTTPQueryItem] {
        var items: [HTTPQueryItem] = []
        for pair in rawQuery.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                items.append(
                    HTTPQueryItem(
                        name: PercentDecoding.decode(pair[pair.startIndex..<equals], plusIsSpace: true),
                        value: PercentDecoding.decode(pair[pair.index(after: equals)...], plusIsSpace: true)))
            } else {
                items.append(HTTPQueryItem(name: PercentDecoding.decode(pair, plusIsSpace: true), value: nil))
            }
        }
        return items
    }
}
