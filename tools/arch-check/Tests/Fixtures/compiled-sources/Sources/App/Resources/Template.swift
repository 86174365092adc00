// Copied as a resource, not compiled.
import Other
