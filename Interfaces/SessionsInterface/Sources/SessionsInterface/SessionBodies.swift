public import ShareKitWireContract

/// The body of login: the wire contract's type.
public typealias LoginBody = LoginRequest

/// The body of refresh: the wire contract's type; `retry` is left out
/// when nil (callers pass `true` or nil).
public typealias RefreshBody = RefreshRequest

/// The body of createExtensionSession: the wire contract's type.
public typealias ExtensionSessionBody = ExtensionSessionRequest

/// A token answer (login, refresh, createExtensionSession): the wire
/// contract's `TokenPair`, whose decoder reads an absent or null
/// `token_type` as `DPoP` as this client always has.
public typealias TokenAnswer = TokenPair
