import Foundation
@_spi(Engine) import ClawSystem

struct SSHTestError: Error, CustomStringConvertible { let description: String }

/// A real OpenSSH server on 127.0.0.1 for the SSH tunnel tests: a throwaway host key and client key
/// made with `ssh-keygen` in a temporary directory, its own `sshd_config`, run as `sshd -D -e -f CONFIG`
/// and waited for until its port accepts connections. Stopped (SIGTERM) by the test, at the latest when
/// released. Without `/usr/sbin/sshd` (package openssh-server, which `.ci/run` installs) it throws.
final class SSHServer: @unchecked Sendable {
    static let daemon = "/usr/sbin/sshd"
    static let keygen = "/usr/bin/ssh-keygen"

    let directory: URL
    let port: Int
    /// The account ssh logs in as (this process's user: root on CI).
    let user: String
    /// The private key `authorized_keys` lets in.
    let clientKey: String
    /// `ssh-ed25519 AAAA…`: the host's public key.
    let hostKey: String
    private let logURL: URL
    private var daemon: Subprocess?

    init() throws {
        for tool in [Self.daemon, Self.keygen] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw SSHTestError(description: "\(tool) is missing: install openssh-server and openssh-client (.ci/run installs them)")
        }
        guard getuid() == 0 else {
            throw SSHTestError(description: "the SSH tunnel tests run as root (sshd's privilege separation)")
        }
        // sshd's privilege-separation directory; a fresh install has it only once the service ran.
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sshd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        user = String(cString: getpwuid(getuid())!.pointee.pw_name)
        let hostKeyPath = directory.appendingPathComponent("host_ed25519").path
        clientKey = directory.appendingPathComponent("client_ed25519").path
        try Self.makeKey(hostKeyPath)
        try Self.makeKey(clientKey)
        hostKey = try Self.publicKey(hostKeyPath)
        try (Self.publicKey(clientKey) + "\n").write(toFile: directory.appendingPathComponent("authorized_keys").path,
                                                      atomically: true, encoding: .utf8)
        logURL = directory.appendingPathComponent("sshd.log")

        var lastFailure = ""
        for _ in 0..<5 {
            let port = try LoopbackPort.ephemeral()
            let config = directory.appendingPathComponent("sshd_config")
            try """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(hostKeyPath)
                AuthorizedKeysFile \(directory.appendingPathComponent("authorized_keys").path)
                PidFile \(directory.appendingPathComponent("sshd.pid").path)
                StrictModes no
                UsePAM no
                PermitRootLogin yes
                PubkeyAuthentication yes
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                AllowTcpForwarding yes
                UseDNS no
                LogLevel DEBUG1

                """.write(to: config, atomically: true, encoding: .utf8)
            // posix_spawn, not Foundation's Process: sshd closes every inherited descriptor at start, which
            // Foundation takes for its exit and then blocks in waitpid, stalling every other Process.
            // -E: the -e log goes to a file.
            let attempt = try Subprocess.spawn(Subprocess.Configuration(
                executable: Self.daemon, arguments: ["-D", "-e", "-E", logURL.path, "-f", config.path]))
            if Self.waitUntilAccepting(port: port, while: attempt) {
                self.port = port
                daemon = attempt
                return
            }
            attempt.terminate(grace: 0)
            lastFailure = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        }
        throw SSHTestError(description: "sshd did not start: \(lastFailure)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// SIGTERM (SIGKILL after 5 s) to sshd and what it started, and waits for them; a new connection is then refused.
    func stop() {
        daemon?.terminate(grace: 5)
    }

    /// `user@127.0.0.1:PORT`, as `gateway.remote.sshTarget`.
    var target: String { "\(user)@127.0.0.1:\(port)" }

    /// The `known_hosts` line for this server.
    var knownHostsLine: String { "[127.0.0.1]:\(port) \(hostKey)" }

    /// What sshd logged so far (`-e`, DEBUG1).
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// A new ed25519 key pair at `path` (and `path.pub`), no passphrase.
    static func makeKey(_ path: String) throws {
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: keygen)
        generator.arguments = ["-q", "-t", "ed25519", "-N", "", "-C", "openclaw-test", "-f", path]
        generator.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try generator.run()
        generator.waitUntilExit()
        guard generator.terminationStatus == 0 else { throw SSHTestError(description: "ssh-keygen failed for \(path)") }
    }

    /// `TYPE KEY` of `path.pub`, without the comment.
    static func publicKey(_ path: String) throws -> String {
        let text = try String(contentsOfFile: path + ".pub", encoding: .utf8)
        return text.split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// Tries to connect every 20 ms until the port accepts, the process exits, or 10 s pass.
    private static func waitUntilAccepting(port: Int, while process: Subprocess) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && process.checkTermination() == nil {
            if canConnect(port: port) { return true }
            usleep(20_000)
        }
        return false
    }

    static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

/// The ids of running `ssh` processes whose command line names `text` (the test's unique key path), from /proc.
func sshProcesses(naming text: String) -> [Int32] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    return entries.compactMap { entry -> Int32? in
        guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let program = arguments.first, program.hasSuffix("ssh"), arguments.contains(text) else { return nil }
        // A zombie keeps its command line until reaped: only living processes count.
        if let status = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
           let close = status.lastIndex(of: ")"), status[status.index(close, offsetBy: 2)] == "Z" { return nil }
        return pid
    }
}

/// A listener on 127.0.0.1 that the test holds, to make a port taken.
final class HeldPort: @unchecked Sendable {
    let port: Int
    let descriptor: Int32

    /// Listens on `port` (0: one the kernel picks).
    init(_ port: Int = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw SSHTestError(description: "cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        self.port = Int(UInt16(bigEndian: local.sin_port))
        descriptor = fd
    }

    /// Listens on `[::1]:port` (IPv6 loopback, which 127.0.0.1's listeners do not conflict with).
    init(ipv6Port port: Int) throws {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr.__in6_u.__u6_addr8.15 = 1
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw SSHTestError(description: "cannot listen on [::1]:\(port): \(String(cString: strerror(errno)))")
        }
        self.port = port
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Whether anyone connected (a pending connection waits in the backlog).
    var wasConnectedTo: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }
}

/// A TCP relay in front of sshd that, as soon as a client connects, takes `grab` on 127.0.0.1 and
/// only then passes the bytes on: the client's ssh finds its forward's port taken when it binds it,
/// after `openclaw` saw it free (the race `ExitOnForwardFailure` is there for), every time.
final class PortGrabbingRelay: @unchecked Sendable {
    let port: Int
    private let listener: HeldPort
    private let state = State()

    /// What the relay's threads share: the ports they took and the sockets they opened.
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var held: [HeldPort] = []
        var descriptors: [Int32] = []
        func keep(_ port: HeldPort, _ fds: [Int32]) { lock.lock(); held.append(port); descriptors += fds; lock.unlock() }
    }

    init(to target: Int, grabbing grab: Int) throws {
        listener = try HeldPort()
        port = listener.port
        let listening = listener.descriptor
        let state = self.state
        Thread.detachNewThread {
            while true {
                let client = accept(listening, nil, nil)
                guard client >= 0 else { return }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                guard let taken = try? HeldPort(grab) else { close(client); continue }
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                state.keep(taken, [client, server])
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(target).bigEndian)
                address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard connected == 0 else { shutdown(client, Int32(SHUT_RDWR)); continue }
                Thread.detachNewThread { copy(from: client, to: server) }
                Thread.detachNewThread { copy(from: server, to: client) }
            }
        }
    }

    deinit {
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
        state.lock.lock()
        for fd in state.descriptors { shutdown(fd, Int32(SHUT_RDWR)) }
        state.lock.unlock()
    }
}

/// Copies bytes until the source ends, then half-closes the destination. `send(MSG_NOSIGNAL)`: a peer
/// that went away (ssh exits when its forward fails) must not raise SIGPIPE, which ends the test process.
private func copy(from source: Int32, to destination: Int32) {
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        var offset = 0
        while offset < count {
            let written = buffer[offset..<count].withUnsafeBytes { send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { shutdown(source, Int32(SHUT_RDWR)); return }
            offset += written
        }
    }
    shutdown(destination, Int32(SHUT_WR))
}
