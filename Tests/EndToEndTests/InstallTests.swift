import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `make install` and `make uninstall` (the Makefile at the root), as a
/// person runs them into a prefix, and what works right after: `man share`
/// and completion in bash, zsh and fish, the desktop entry and the systemd
/// user unit pointing at the installed programs.
@Suite("make install: programs, manual pages, completions, desktop entry, systemd unit")
struct InstallTests {
    /// The repository's root (where the Makefile is).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Every file `make install` writes, relative to the prefix.
    static let files = [
        "bin/share", "bin/share-daemon", "bin/share-server", "bin/share-sheet", "share/man/man1/share.1",
        "share/man/man1/share-daemon.1", "share/man/man1/share-server.1", "share/bash-completion/completions/share",
        "share/zsh/site-functions/_share", "share/fish/vendor_completions.d/share.fish",
        "share/applications/sharekit.desktop", "lib/systemd/user/share-daemon.service",
    ]

    /// Runs `program` with only `environment` (no inherited variables: no
    /// toolchain on the paths), through `env -i`.
    static func clean(_ program: String, _ arguments: [String], environment: [String: String]) throws -> ProcessResult {
        try runProcess("/usr/bin/env", ["-i"] + environment.map { "\($0)=\($1)" } + [program] + arguments)
    }

    /// What `share se<Tab>` offers in each shell, with the shells pointed at
    /// the prefix as a person's would be for /usr/local (XDG_DATA_DIRS,
    /// fpath); a shell that is not installed is left out, saying so.
    static func expectCompletion(prefix: String, home: TemporaryDirectory) throws {
        let environment = [
            "HOME": home.path, "PATH": prefix + "/bin:/usr/bin:/bin", "XDG_DATA_DIRS": prefix + "/share:/usr/share",
            "XDG_CONFIG_HOME": home.file("config"), "TERM": "dumb",
        ]
        if FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion") {
            let bash = try clean(
                "/bin/bash",
                [
                    "--norc", "--noprofile", "-c",
                    "source /usr/share/bash-completion/bash_completion; __load_completion share || exit 3; "
                        + "COMP_WORDS=(share se); COMP_CWORD=1; COMP_LINE='share se'; COMP_POINT=8; "
                        + "$(complete -p share | sed -E 's/.*-F ([^ ]+).*/\\1/') share se share; "
                        + "printf '%s\\n' \"${COMPREPLY[@]}\"",
                ], environment: environment)
            #expect(bash.stdout.split(separator: "\n").contains("send"), "bash: \(bash.stdout) \(bash.stderr)")
        } else {
            Issue.record("bash-completion is not installed (apt-get install bash-completion; .ci/run installs it)")
        }
        if let zsh = TestTool.path("zsh") {
            let result = try clean(
                zsh,
                [
                    "-f", "-c",
                    "fpath=(\(prefix)/share/zsh/site-functions $fpath); autoload -Uz compinit; compinit -u -D; "
                        + "print -r -- $_comps[share]",
                ], environment: environment)
            #expect(result.stdout == "_share\n", "zsh: \(result.stdout) \(result.stderr)")
        } else {
            Issue.record("zsh is not installed (apt-get install zsh; .ci/run installs it)")
        }
        if let fish = TestTool.path("fish") {
            let result = try clean(fish, ["-c", "complete -C 'share se'"], environment: environment)
            #expect(result.stdout.hasPrefix("send\t"), "fish: \(result.stdout) \(result.stderr)")
        } else {
            Issue.record("fish is not installed (apt-get install fish; .ci/run installs it)")
        }
    }

    /// `man share` finds the page through PATH alone (man-db maps
    /// PREFIX/bin to PREFIX/share/man) and through MANPATH, and shows it.
    static func expectManualPages(prefix: String, home: TemporaryDirectory) throws {
        guard let man = TestTool.path("man") else {
            Issue.record("man is not installed (apt-get install man-db; .ci/run installs it)")
            return
        }
        for program in ["share", "share-daemon", "share-server"] {
            let byPath = try clean(
                man, ["-w", program], environment: ["HOME": home.path, "PATH": prefix + "/bin:/usr/bin:/bin"])
            #expect(byPath.stdout == "\(prefix)/share/man/man1/\(program).1\n", "\(byPath.stdout) \(byPath.stderr)")
        }
        let shown = try clean(
            man, ["-P", "cat", "share"],
            environment: [
                "HOME": home.path, "PATH": "/usr/bin:/bin", "MANPATH": prefix + "/share/man", "MANWIDTH": "80",
            ])
        #expect(shown.status == 0 && shown.stdout.contains("share send"), "\(shown.stdout.prefix(300)) \(shown.stderr)")
    }

    @Test(
        "make install PREFIX=… installs every file where its reader looks; man share and completion in bash, zsh and fish work from there; make uninstall removes them all",
        .enabled(if: TestTool.available("make"), "needs make"))
    func installAndUninstall() throws {
        let home = try TemporaryDirectory(prefix: "make-install")
        defer { home.remove() }
        let prefix = home.file("prefix")
        // The debug build of this test run, installed as a release would be.
        let install = try runProcess(
            "/usr/bin/make",
            ["-C", Self.root, "install", "PREFIX=\(prefix)", "BUILT_DIR=\(BuiltProducts.directory)"])
        #expect(install.status == 0, "\(install.stdout) \(install.stderr)")
        for file in Self.files {
            let mode = try? FileManager.default.attributesOfItem(atPath: prefix + "/" + file)[.posixPermissions] as? Int
            #expect(
                mode == (file.hasPrefix("bin/") ? 0o755 : 0o644),
                "\(file): \(mode.map { String($0, radix: 8) } ?? "missing")")
        }
        try Self.expectManualPages(prefix: prefix, home: home)
        try Self.expectCompletion(prefix: prefix, home: home)
        let desktop = try String(contentsOfFile: prefix + "/share/applications/sharekit.desktop", encoding: .utf8)
        #expect(desktop.contains("\nExec=\(prefix)/bin/share send --desktop %U\n"), "\(desktop)")
        if let validate = TestTool.path("desktop-file-validate") {
            let valid = try runProcess(validate, [prefix + "/share/applications/sharekit.desktop"])
            #expect(valid.status == 0, "\(valid.stdout) \(valid.stderr)")
        }
        let unit = try String(contentsOfFile: prefix + "/lib/systemd/user/share-daemon.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=\(prefix)/bin/share-daemon\n"), "\(unit)")

        let uninstall = try runProcess("/usr/bin/make", ["-C", Self.root, "uninstall", "PREFIX=\(prefix)"])
        #expect(uninstall.status == 0, "\(uninstall.stdout) \(uninstall.stderr)")
        let left = (FileManager.default.enumerator(atPath: prefix)?.allObjects as? [String] ?? []).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix + "/" + $0, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
        #expect(left.isEmpty, "left after make uninstall: \(left)")
    }

    @Test(
        "the release install that tools/test made (make install, the Swift runtime linked statically) runs without the toolchain on any path, and man share and completion work from it",
        .enabled(
            if: ProcessInfo.processInfo.environment["SHAREKIT_TEST_INSTALLED_PREFIX"] != nil,
            "tools/test runs `make install PREFIX=…` (release) first and names the prefix in SHAREKIT_TEST_INSTALLED_PREFIX"
        ))
    func releaseInstall() throws {
        let prefix = try #require(ProcessInfo.processInfo.environment["SHAREKIT_TEST_INSTALLED_PREFIX"])
        let home = try TemporaryDirectory(prefix: "release-install")
        defer { home.remove() }
        for program in ["share", "share-daemon", "share-server"] {
            let path = prefix + "/bin/" + program
            let libraries = try runProcess("/usr/bin/ldd", [path])
            #expect(
                !libraries.stdout.contains("libswift") && !libraries.stdout.contains("libFoundation"),
                "\(program) loads the toolchain's libraries: \(libraries.stdout)")
            let version = try Self.clean(
                path, ["--version"], environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
            #expect(
                version.status == 0 && version.stdout.hasPrefix(program + " "), "\(version.stdout) \(version.stderr)")
        }
        try Self.expectManualPages(prefix: prefix, home: home)
        try Self.expectCompletion(prefix: prefix, home: home)
    }
}
