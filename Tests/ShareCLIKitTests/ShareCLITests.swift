import ShareKitAppSupport
import ShareKitCLIKit
import ShareKitSystemTesting
import Testing

@Suite("share CLI entry")
struct ShareCLITests {
    @Test("--version names the version and the libcurl it linked")
    func version() async {
        let out = BufferSink()
        #expect(await ShareCLI.main(["--version"], io: ProgramIO(out: out, err: BufferSink())) == 0)
        #expect(out.text.hasPrefix("share 0."))
        #expect(out.text.contains("libcurl 7.") || out.text.contains("libcurl 8."))
    }

    @Test("--help lists the commands of the contract")
    func help() async {
        let out = BufferSink()
        #expect(await ShareCLI.main(["--help"], io: ProgramIO(out: out, err: BufferSink())) == 0)
        for command in ["send", "inbox", "login", "logout", "status", "targets", "notify", "debug"] {
            #expect(out.text.contains("\n  \(command) "))
        }
    }
}
