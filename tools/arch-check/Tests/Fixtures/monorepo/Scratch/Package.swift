// swift-tools-version:6.0
// Excluded by the configuration: never read (it would not evaluate).
let package = 
