/// The `demo` seed: Alex, Sam and Robin, two spaces with chat and forum
/// channels and a few threads, so the README's demo has something to share into.
public enum DemoSeed {
    /// The demo people and their passwords (printed on stderr at start; demo only).
    public static let passwords: [(username: String, password: String)] = [
        ("alex", "alex-demo-pass"), ("sam", "sam-demo-pass"), ("robin", "robin-demo-pass"),
    ]

    /// The seed.
    public static var seed: ServerSeed {
        ServerSeed(
            users: passwords.map { ServerSeed.User(username: $0.username, password: $0.password) },
            spaces: [
                ServerSeed.Space(
                    id: "s1", name: "server",
                    channels: [
                        ServerSeed.Channel(
                            id: "c1", name: "Gateway", kind: "chat", readers: ["alex", "sam", "robin"],
                            writers: ["alex", "sam"]),
                        ServerSeed.Channel(
                            id: "c2", name: "Ideas", kind: "forum", readers: ["alex", "sam"], writers: ["alex", "sam"]),
                        ServerSeed.Channel(
                            id: "c3", name: "Announcements", kind: "chat", readers: ["alex", "sam", "robin"],
                            writers: ["robin"]),
                    ]),
                ServerSeed.Space(
                    id: "s2", name: "design",
                    channels: [
                        ServerSeed.Channel(
                            id: "c4", name: "Reviews", kind: "forum", readers: ["alex", "robin"],
                            writers: ["alex", "robin"])
                    ]),
            ],
            threads: [
                ServerSeed.Thread(id: "t1", channelID: "c1", title: "resume the gateway"),
                ServerSeed.Thread(id: "t2", channelID: "c1", title: "Gateway timeouts on upload"),
                ServerSeed.Thread(id: "t3", channelID: "c2", title: "Share sheet ideas"),
                ServerSeed.Thread(id: "t4", channelID: "c4", title: "Résumé screen review"),
            ],
            settings: InstanceSettings())
    }
}
