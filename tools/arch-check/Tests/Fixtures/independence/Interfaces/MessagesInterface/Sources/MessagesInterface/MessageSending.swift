public protocol MessageSending {}
