import Foundation

/// The `GOAL` lines that `benchmarks/run` collects into its report:
/// `GOAL <id> value=<number><unit> <op> <target><unit> PASS|FAIL -- <explanation>`.
public enum Goal {
    /// One goal line.
    /// - Parameters:
    ///   - id: the goal's id, as the benchmarks' shared list names it.
    ///   - value: the measured figure (NaN or infinite: FAIL).
    ///   - unit: `us`, `x`...
    ///   - op: `<=`, `>=`, `<` or `>`.
    ///   - target: the goal.
    ///   - explanation: one line with the raw figures.
    /// - Returns: the line.
    public static func line(id: String, value: Double, unit: String, op: String, target: Double, explanation: String)
        -> String
    {
        let met: Bool
        switch op {
        case "<=": met = value <= target
        case ">=": met = value >= target
        case "<": met = value < target
        default: met = value > target
        }
        let passed = value.isFinite && met
        let shown = value.isFinite ? number(value) : "nan"
        return "GOAL \(id) value=\(shown)\(unit) \(op) \(number(target))\(unit) \(passed ? "PASS" : "FAIL") -- "
            + explanation.replacingOccurrences(of: "\n", with: " ")
    }

    /// A figure with as many decimals as it needs to be read: 243, 1.37.
    private static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: abs(value) >= 10 ? "%.1f" : "%.2f", value)
    }
}
