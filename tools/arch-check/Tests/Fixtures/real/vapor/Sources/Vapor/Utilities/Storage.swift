import Logging
