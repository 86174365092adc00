import Foundation
import Synchronization

/// A key a person pressed, as a raw-mode terminal sends it.
enum Key: Equatable, Sendable {
    case character(Character)
    case enter, tab, backTab, backspace, escape, interrupt
    case up, down, left, right
    /// A key the picker does not use (function keys, other control codes).
    case other

    /// Splits what one read returned into keys. A lone ESC is the Escape
    /// key; ESC followed by `[` or `O` starts a cursor-key sequence.
    static func parse(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var text: [UInt8] = []
        func flushText() {
            keys += String(decoding: text, as: UTF8.self).map { Key.character($0) }
            text.removeAll()
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte >= 0x20, byte != 0x7F {
                text.append(byte)
                continue
            }
            flushText()
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x03: keys.append(.interrupt)
            case 0x1B:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O")
                else {
                    keys.append(.escape)
                    continue
                }
                index += 1
                // Parameters, then one final byte in 0x40...0x7E.
                var final: UInt8 = 0
                while index < bytes.count {
                    let next = bytes[index]
                    index += 1
                    if (0x40...0x7E).contains(next) {
                        final = next
                        break
                    }
                }
                switch final {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                case UInt8(ascii: "Z"): keys.append(.backTab)
                default: keys.append(.other)
                }
            default: keys.append(.other)
            }
        }
        flushText()
        return keys
    }
}

/// Reads keys from a terminal on a thread of its own, so that typing never
/// waits for a search, and stops within a tenth of a second of ``stop()``
/// (it polls instead of blocking in `read`, which would otherwise swallow
/// the next line typed after the picker has closed).
final class KeyReader: Sendable {
    private let stopped = Atomic<Bool>(false)

    /// Starts reading `fd`, calling `deliver` with each batch of keys and
    /// `ended` once when the terminal goes away.
    init(fd: Int32, deliver: @escaping @Sendable ([Key]) -> Void, ended: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 256)
            while !self.stopped.load(ordering: .acquiring) {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, 100)
                if ready < 0, errno == EINTR { continue }
                if ready <= 0 { continue }
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else {
                    ended()
                    return
                }
                deliver(Key.parse(Array(buffer[0..<count])))
            }
        }
        thread.name = "share-picker-keys"
        thread.start()
    }

    /// Stops reading.
    func stop() { stopped.store(true, ordering: .releasing) }
}
