extension Route {
    /// The path every operation of the API lives under (all but the
    /// browser page getMessagePage).
    public static let apiBasePath = "/api/v1"

    /// The path below ``apiBasePath`` (`/auth/login`), or the whole path for
    /// an operation outside it: what a client configured with another base
    /// path appends to its own, and how the token calls are named in
    /// messages people see (`/auth/login answered 401 …`).
    public var pathBelowAPIBase: String {
        let whole = path
        guard whole.hasPrefix(Self.apiBasePath + "/") else { return whole }
        return String(whole.dropFirst(Self.apiBasePath.count))
    }
}
