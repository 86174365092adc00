public func hook() {}
