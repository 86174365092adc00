// swift-tools-version:6.0
// A checkouts folder: never read (it would not evaluate).
let package = 
