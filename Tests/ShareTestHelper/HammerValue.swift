/// Values for ``keychainHammerCommand(_:)`` that say what they must be:
/// `w<writer>-i<iteration>:` followed by a body whose length and letters
/// follow from the header, then `:end`.
enum HammerValue {
    /// The value a writer writes in an iteration (between 100 and 3,100 bytes).
    /// - Parameters:
    ///   - writer: the writer's number.
    ///   - iteration: the iteration.
    /// - Returns: the value.
    static func make(writer: Int, iteration: Int) -> String {
        let length = 100 + (writer * 7919 + iteration * 37) % 3000
        let letter = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8((writer + iteration) % 26)))
        return "w\(writer)-i\(iteration):" + String(repeating: letter, count: length) + ":end"
    }

    /// Whether a value is exactly what its header says.
    /// - Parameter text: a value read back.
    /// - Returns: true when whole.
    static func isWhole(_ text: String) -> Bool {
        guard text.hasPrefix("w"), let colon = text.firstIndex(of: ":") else { return false }
        let header = text[text.index(after: text.startIndex)..<colon].split(separator: "-i")
        guard header.count == 2, let writer = Int(header[0]), let iteration = Int(header[1]) else { return false }
        return text == make(writer: writer, iteration: iteration)
    }
}
