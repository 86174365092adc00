/// Keeps secrets.
public protocol SecretStore {}
