// Reached through the symbolic link Sources/App/Linked.
import Other
