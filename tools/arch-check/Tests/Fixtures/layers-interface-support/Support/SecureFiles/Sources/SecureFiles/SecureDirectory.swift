import Foundation

/// A private directory.
public final class SecureDirectory {}
