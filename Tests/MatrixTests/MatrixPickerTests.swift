import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// Choosing a Matrix room: `share targets --json --search` and the terminal
/// picker of `share send` without `--to` (driven through a pseudo-terminal)
/// list the person's rooms, those whose name starts with the search first,
/// and the room chosen gets the share.
@Suite(.serialized) struct MatrixPickerTests {
    @Test func roomsAreFoundPrefixFirstAndThePickedRoomGetsTheShare() throws {
        let rooms = try MatrixSendTests.Rooms()
        defer { rooms.fixture.close() }
        // "Design team" sorts before "Team chat" by name; only the prefix rule puts it second.
        let design = try rooms.sam.createRoom(name: "Design team", invite: [rooms.fixture.person.userID])
        try rooms.fixture.person.join(design)

        let found = try rooms.fixture.share(["targets", "--search", "team", "--json"])
        #expect(found.status == 0, "\(found.stderr)")
        let list = (try? JSONSerialization.jsonObject(with: Data(found.stdout.utf8))) as? [[String: Any]] ?? []
        let ids = list.compactMap { $0["id"] as? String }
        #expect(ids.prefix(2) == [rooms.team, design], "\(found.stdout)")
        #expect(list.first?["kind"] as? String == "channel", "\(found.stdout)")

        let share = try PseudoTerminalProcess(
            BuiltProducts.path("share"), ["send", "--text", "picked in the terminal"],
            environment: rooms.fixture.environment)
        #expect(share.waitForScreen { $0.contains("No recent targets: type to search.") } != nil, "\(share.screen)")
        share.send(Keys.tab + "team")
        let results = share.waitForScreen {
            $0.contains("Results for \"team\":") && $0.contains("Team chat") && $0.contains("Design team")
        }
        let screen = try #require(results, "\(share.screen)")
        let team = try #require(screen.range(of: "Team chat"))
        let other = try #require(screen.range(of: "Design team"))
        #expect(team.lowerBound < other.lowerBound, "prefix match not first: \(screen)")
        share.send(Keys.enter + Keys.enter)
        #expect(share.waitForScreen { $0.contains("To: ") && $0.contains("Team chat") } != nil, "\(share.screen)")
        share.send(Keys.enter)
        #expect(share.waitForExit() == 0, "\(share.raw)")
        let bodies = try rooms.sam.messages(in: rooms.team).compactMap {
            ($0["content"] as? [String: Any])?["body"] as? String
        }
        #expect(bodies == ["picked in the terminal"])
        #expect(try rooms.sam.messages(in: design).isEmpty)
    }
}
