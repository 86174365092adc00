public struct MessageSender {}
