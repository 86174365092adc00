import Combine
