import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share login`, `share status` and `share logout` against a real Synapse:
/// the homeserver is recognised, the CLI and the daemon get a device each,
/// named so the person knows them in Element, and logout ends both.
@Suite(.serialized) struct MatrixLoginTests {
    @Test func loginMakesTwoNamedDevicesAndLogoutEndsBoth() throws {
        let fixture = try MatrixShareFixture()
        defer { fixture.close() }
        let login = try fixture.login()
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Logged in") || login.stdout.contains(fixture.person.user), "\(login.stdout)")

        let names = try fixture.person.deviceNames()
        #expect(names.contains { $0.hasPrefix("ShareKit share-daemon on ") }, "\(names)")
        #expect(names.contains { $0.hasPrefix("ShareKit share (command line) on ") }, "\(names)")

        let status = try fixture.share(["status", "--json"])
        let json = MatrixShareFixture.json(status)
        #expect(json["server_kind"] as? String == "matrix", "\(status.stdout)")
        #expect(json["logged_in"] as? Bool == true)
        let text = try fixture.share(["status"])
        #expect(text.stdout.contains("server kind: Matrix homeserver (\(fixture.server.origin))"), "\(text.stdout)")

        // A mistyped password at a second login ends nothing; a second login
        // replaces both devices rather than adding two more.
        #expect(try fixture.login(password: "typo").status != 0)
        #expect(try fixture.person.deviceNames().filter { $0.hasPrefix("ShareKit ") }.count == 2)
        #expect(MatrixShareFixture.json(try fixture.share(["status", "--json"]))["logged_in"] as? Bool == true)
        #expect(try fixture.login().status == 0)
        #expect(try fixture.person.deviceNames().filter { $0.hasPrefix("ShareKit ") }.count == 2)

        let logout = try fixture.share(["logout"])
        #expect(logout.status == 0, "\(logout.stderr)")
        let after = try fixture.person.deviceNames()
        #expect(!after.contains { $0.hasPrefix("ShareKit ") }, "\(after)")
        #expect(MatrixShareFixture.json(try fixture.share(["status", "--json"]))["logged_in"] as? Bool != true)
    }

    @Test func wrongPasswordIsToldAsSuchAndNothingIsStored() throws {
        let fixture = try MatrixShareFixture()
        defer { fixture.close() }
        let login = try fixture.login(password: "not-the-password")
        #expect(login.status != 0)
        #expect(login.stderr.contains("wrong") || login.stderr.contains("Wrong"), "\(login.stderr)")
        #expect(!login.stderr.contains("not-the-password"))
        #expect(try fixture.person.deviceNames().allSatisfy { !$0.hasPrefix("ShareKit ") })
    }
}
