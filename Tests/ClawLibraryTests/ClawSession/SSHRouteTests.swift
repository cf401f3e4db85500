import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawState
@_spi(Engine) @testable import ClawSession

/// When a connection goes through an SSH tunnel, and the tunnel's target, ports and ssh arguments,
/// as the official client (September 2026) decides them.
@Suite struct SSHRouteTests {
    /// Resolves `config` (JSON5) from a fresh state directory.
    func resolve(_ config: String, env: [String: String] = [:], options: ConnectionOptions = ConnectionOptions())
        throws(ConfigError) -> ResolvedConnection {
        let dir = ConfigTestDirectory()
        dir.write("home/.openclaw/openclaw.json", config)
        var environment = env
        environment["HOME"] = dir.sub("home")
        return try ConnectionResolver.resolve(options: options, environment: Environment(environment))
    }

    static let remote = #"gateway:{mode:"remote",remote:{url:"ws://127.0.0.1:18789",sshTarget:"me@gw.example""#

    @Test func theRouteAppliesToARemoteLoopbackURLFromTheConfigWithATarget() throws {
        let resolved = try resolve("{\(Self.remote),sshIdentity:\" ~/.ssh/id_gw \"}}}")
        let route = try #require(resolved.sshRoute)
        #expect(route.target == SSHTarget(user: "me", host: "gw.example"))
        #expect(route.targetText == "me@gw.example")
        #expect(route.remotePort == 18789)
        #expect(route.identity == "~/.ssh/id_gw")
        #expect(route.hostKeyPolicy == .strict)
        #expect(resolved.url == WebSocketURL(isSecure: false, host: "127.0.0.1", port: 18789))
        // An omitted transport means ssh; "ssh" says so.
        #expect(try resolve("{\(Self.remote),transport:\"ssh\",sshHostKeyPolicy:\"openssh\"}}}").sshRoute?.hostKeyPolicy == .openssh)
    }

    @Test func theRouteDoesNotApplyOtherwise() throws {
        // transport "direct"
        #expect(try resolve("{\(Self.remote),transport:\"direct\"}}}").sshRoute == nil)
        // no target (or a blank one)
        #expect(try resolve(#"{gateway:{mode:"remote",remote:{url:"ws://127.0.0.1:18789",sshTarget:"  "}}}"#).sshRoute == nil)
        // local mode
        #expect(try resolve(#"{gateway:{remote:{url:"ws://127.0.0.1:18789",sshTarget:"me@gw"}}}"#).sshRoute == nil)
        // a URL that is not loopback is dialled directly
        #expect(try resolve(#"{gateway:{mode:"remote",remote:{url:"wss://gw.example",sshTarget:"me@gw"}}}"#).sshRoute == nil)
        // a URL from --url or OPENCLAW_GATEWAY_URL, even the same one
        #expect(try resolve("{\(Self.remote)}}}", options: ConnectionOptions(url: "ws://127.0.0.1:18789")).sshRoute == nil)
        #expect(try resolve("{\(Self.remote)}}}", env: ["OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:18789"]).sshRoute == nil)
    }

    @Test func localhostAndIPv6LoopbackURLsTakeTheRoute() throws {
        for url in ["ws://localhost:18789", "wss://127.0.0.2:9443/gw", "ws://[::1]:18789"] {
            #expect(try resolve(#"{gateway:{mode:"remote",remote:{url:"\#(url)",sshTarget:"gw"}}}"#).sshRoute != nil, "\(url)")
        }
    }

    @Test func theRemotePortIsRemotePortThenTheURLsPortThenTheGatewayPortRule() throws {
        func port(_ remote: String, _ extra: String = "", env: [String: String] = [:]) throws -> Int? {
            try resolve(#"{gateway:{mode:"remote",\#(extra)remote:{sshTarget:"gw",\#(remote)}}}"#, env: env).sshRoute?.remotePort
        }
        #expect(try port(#"url:"ws://127.0.0.1:18789",remotePort:9000"#) == 9000)
        #expect(try port(#"url:"ws://127.0.0.1:28789""#) == 28789)
        // A default port written out is still the one written.
        #expect(try port(#"url:"ws://127.0.0.1:80""#) == 80)
        #expect(try port(#"url:"wss://localhost:443/x""#) == 443)
        #expect(try port(#"url:"ws://[::1]:7000""#) == 7000)
        // No port in the URL: OPENCLAW_GATEWAY_PORT, then gateway.port, then 18789.
        #expect(try port(#"url:"ws://localhost""#) == 18789)
        #expect(try port(#"url:"ws://localhost""#, "port:19500,") == 19500)
        #expect(try port(#"url:"ws://localhost""#, "port:19500,", env: ["OPENCLAW_GATEWAY_PORT": "19600"]) == 19600)
    }

    @Test func badSettingsAreConfigErrorsNamingTheKey() {
        for (setting, key) in [(#"sshTarget:"-oProxyCommand=x""#, "gateway.remote.sshTarget"),
                               (#"sshTarget:"me@gw",transport:"tcp""#, "gateway.remote.transport"),
                               (#"sshTarget:"me@gw",sshHostKeyPolicy:"ask""#, "gateway.remote.sshHostKeyPolicy"),
                               (#"sshTarget:"me@gw",remotePort:70000"#, "gateway.remote.remotePort")] {
            #expect {
                _ = try resolve(#"{gateway:{mode:"remote",remote:{url:"ws://127.0.0.1:1",\#(setting)}}}"#)
            } throws: { error in
                guard case ConfigError.configInvalid(_, let named, _) = error else { return false }
                return named == key
            }
        }
    }

    @Test(arguments: [
        ("gw", SSHTarget(host: "gw")),
        ("me@gw", SSHTarget(user: "me", host: "gw")),
        ("me@gw.example:2222", SSHTarget(user: "me", host: "gw.example", port: 2222)),
        ("  ssh me@10.0.0.5:22 ", SSHTarget(user: "me", host: "10.0.0.5", port: 22)),
        ("gw:65535", SSHTarget(host: "gw", port: 65535)),
    ])
    func targetsAreParsed(_ text: String, _ expected: SSHTarget) {
        #expect(SSHTarget(parsing: text) == expected)
    }

    @Test(arguments: ["", "me@", "@gw", "-oProxyCommand=x", "me@-gw", "-me@gw", "me@gw@x", "me@gw host", "gw\t2",
                      "gw\u{7}", ":22", "gw:", "gw:0", "gw:65536", "gw:2x", "fe80::1", "me@gw::22"])
    func badTargetsAreRefused(_ text: String) {
        #expect(SSHTarget(parsing: text) == nil)
    }

    @Test func deviceTokensAreFiledUnderTheTargetAndRemotePort() {
        let route = SSHRoute(target: SSHTarget(user: "fixture", host: "gateway-a"), targetText: "fixture@gateway-a", remotePort: 18789)
        let expected = "remote:ssh:" + Hex.encode(Digest.sha256(Array("fixture@gateway-a:gateway-port:18789".utf8)))
        #expect(route.deviceTokenScope == expected)
    }

    @Test func sshArgumentsAreTheOfficialOnesInTheirOrder() {
        let strict = SSHRoute(target: SSHTarget(user: "me", host: "gw", port: 2222), remotePort: 18789, identity: "~/.ssh/id_gw")
        #expect(SSHTunnel.arguments(route: strict, localPort: 40001) == [
            "-N", "-L", "127.0.0.1:40001:127.0.0.1:18789", "-p", "2222",
            "-o", "ExitOnForwardFailure=yes", "-o", "BatchMode=yes",
            "-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "ControlPersist=no", "-o", "ForkAfterAuthentication=no",
            "-o", "StrictHostKeyChecking=yes",
            "-o", "UpdateHostKeys=yes", "-o", "ConnectTimeout=5", "-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3",
            "-i", "~/.ssh/id_gw", "--", "me@gw",
        ])
        // No port in the target: no -p (ssh_config decides); the openssh policy: no StrictHostKeyChecking.
        let open = SSHRoute(target: SSHTarget(host: "gw-alias"), remotePort: 9000, hostKeyPolicy: .openssh)
        let arguments = SSHTunnel.arguments(route: open, localPort: 18789)
        #expect(!arguments.contains("-p") && !arguments.contains("-i"))
        #expect(!arguments.contains("StrictHostKeyChecking=yes"))
        #expect(arguments.prefix(3) == ["-N", "-L", "127.0.0.1:18789:127.0.0.1:9000"])
        #expect(arguments.suffix(2) == ["--", "gw-alias"])
    }

    @Test func tunnelledOptionsDialTheLocalEndAndKeepTheConfiguredNameForTLS() throws {
        let route = SSHRoute(target: SSHTarget(host: "gw"), remotePort: 18789)
        var options = SessionOptions(url: try #require(WebSocketURL("wss://localhost:18789/gw?x=1")), clientVersion: "t")
        options.sshRoute = route
        let through = SSHTunnel.tunnelledOptions(options, route: route, localPort: 45000)
        #expect(through.url == WebSocketURL(isSecure: true, host: "127.0.0.1", port: 45000, path: "/gw?x=1"))
        #expect(through.url.hostHeader == "127.0.0.1:45000")
        #expect(through.tls?.serverName == "localhost")
        #expect(through.sshRoute == nil)
    }
}

/// The system pieces under the tunnel: which process a listener is, free loopback ports, the ssh client.
@Suite struct SSHTunnelSystemTests {
    @Test func listenRowsAreReadFromAProcNetTable() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0 100 0 0 10 0
               1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0 20 4 30 10 -1
               2: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4444 1 0 100 0 0 10 0
            """
        #expect(SocketOwnership.listeningInodes(table: Array(table.utf8), port: 8080) == [4242])
        #expect(SocketOwnership.listeningInodes(table: Array(table.utf8), port: 80) == [4444])
        #expect(SocketOwnership.listeningInodes(table: Array(table.utf8), port: 50000).isEmpty)
    }

    @Test func aListenerIsOwnedByTheProcessThatHoldsIt() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        #expect(SocketOwnership.listeners(onPort: listener.port, ownedBy: getpid()) == .owned)
        #expect(SocketOwnership.listeners(onPort: listener.port, ownedBy: 1) == .foreign(ownerListening: false))
        let free = try LoopbackPort.ephemeral()
        #expect(SocketOwnership.listeners(onPort: free, ownedBy: getpid()) == .notListening)
    }

    @Test func theConfiguredPortIsUsedWhenFreeAndAnotherWhenTaken() throws {
        let free = try LoopbackPort.ephemeral()
        #expect(try SSHTunnel.chooseLocalPort(preferred: free) == free)
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        #expect {
            try LoopbackPort.checkAvailable(listener.port)
        } throws: { error in
            (error as? SystemError).map(LoopbackPort.isUnavailable) ?? false
        }
        let other = try SSHTunnel.chooseLocalPort(preferred: listener.port)
        #expect(other != listener.port && other > 0)
    }

    @Test func theSSHClientIsOnlyTakenFromRootOwnedUnwritableFiles() throws {
        let dir = ConfigTestDirectory()
        let writable = dir.write("ssh", "#!/bin/sh\n")
        chmod(writable, 0o777)
        #expect(SSHClient.locate(in: [dir.sub("missing"), writable]) == nil)
        // The real one, where the system installs it.
        if FileManager.default.fileExists(atPath: "/usr/bin/ssh") {
            #expect(SSHClient.locate(in: [writable, "/usr/bin/ssh"]) == "/usr/bin/ssh")
        }
    }

    @Test func refusalsAreRecognisedFromSSHsWords() {
        #expect(SSHTunnelFailure.refusal(in: ["No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.",
                                              "Host key verification failed."]) == .hostKey)
        #expect(SSHTunnelFailure.refusal(in: ["@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @"]) == .hostKey)
        #expect(SSHTunnelFailure.refusal(in: ["root@127.0.0.1: Permission denied (publickey)."]) == .authentication)
        #expect(SSHTunnelFailure.refusal(in: ["ssh: connect to host 127.0.0.1 port 2222: Connection refused"]) == nil)
        #expect(SSHTunnelFailure.refusal(in: ["bind [127.0.0.1]:4000: Address already in use"]) == nil)
    }
}
