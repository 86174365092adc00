import Foundation
import ShareKitSystemTesting
import Testing

/// The tests' own process starter: suites run in parallel threads of one
/// process, so a child must not keep what another test has open, or that
/// test waits (for the end of a pipe, for a disk's space) until the child ends.
@Suite("test processes: no inherited descriptors")
struct ChildDescriptorTests {
    @Test("a child started while a pipe without close-on-exec is open has only its standard streams")
    func onlyStandardStreams() throws {
        var made: [Int32] = [-1, -1]
        #expect(pipe(&made) == 0)
        // Moved above the numbers `ls` itself opens (the lowest free ones):
        // in a quiet process the pipe would get 3 and 4, like `ls`'s folder.
        let ends = made.map { fcntl($0, F_DUPFD, Int32(200)) }
        for end in made { close(end) }
        defer { for end in ends { close(end) } }
        #expect(ends.allSatisfy { $0 >= 200 })
        // `ls` lists its own descriptors: 0 to 2, and the one it reads the folder with.
        let result = try runProcess("/bin/ls", ["/proc/self/fd"])
        #expect(result.status == 0, "\(result.stderr)")
        let listed = Set(result.stdout.split(separator: "\n").compactMap { Int32($0) })
        #expect(!listed.contains(ends[0]) && !listed.contains(ends[1]), "inherited: \(listed.sorted())")
        #expect(listed.count <= 4, "\(listed.sorted())")
    }
}
