@preconcurrency import Combine
