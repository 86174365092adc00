public let lib = 1
