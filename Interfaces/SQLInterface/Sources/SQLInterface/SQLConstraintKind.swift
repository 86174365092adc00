/// Which kind of constraint a statement violated, so that a caller can tell
/// "this row already exists" (``unique``, ``primaryKey``: the answer to an
/// idempotent retry) from a bug (``notNull``, ``foreignKey``, ``check``).
public enum SQLConstraintKind: Sendable, Hashable {
    /// A `UNIQUE` constraint or unique index.
    case unique
    /// A `PRIMARY KEY` (including a duplicate `INTEGER PRIMARY KEY` rowid).
    case primaryKey
    /// A `FOREIGN KEY` constraint.
    case foreignKey
    /// A `NOT NULL` constraint.
    case notNull
    /// A `CHECK` constraint.
    case check
    /// Any other constraint (a `STRICT` column type, a trigger's `RAISE`).
    case other

    /// Whether the violation means an equal key is already stored: a unique
    /// or primary-key conflict.
    public var isDuplicate: Bool { self == .unique || self == .primaryKey }
}
