// A tutorial snippet: DocC shows it, SwiftPM never compiles it.
import Other
