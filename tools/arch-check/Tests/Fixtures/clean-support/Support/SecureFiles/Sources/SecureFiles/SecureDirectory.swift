import Foundation
import PosixErrors

/// A private directory.
public final class SecureDirectory {}
