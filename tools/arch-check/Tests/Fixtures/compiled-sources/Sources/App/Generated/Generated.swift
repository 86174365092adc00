// Left out by the configuration's exclude.
import Other
