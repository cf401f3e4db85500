import Glibc

/// Debian's microsocks, a real SOCKS5 server, on a loopback port of its own: started, stopped (killed, as
/// a crash would), started again on the same port; its log names every connection it made.
final class SOCKSProxy: @unchecked Sendable {
    static let executable = "/usr/bin/microsocks"
    static var isInstalled: Bool { access(executable, X_OK) == 0 }

    let port: Int
    let logPath: String
    private let credentials: (user: String, password: String)?
    private var pid: pid_t = 0

    init(credentials: (user: String, password: String)? = nil) throws {
        self.credentials = credentials
        port = freePort()
        var template = Array("/tmp/claw-socks-log.XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        precondition(fd >= 0)
        close(fd)
        logPath = cString(template)
        try start()
    }

    deinit {
        stop()
        unlink(logPath)
    }

    /// Starts microsocks and waits until it accepts connections.
    func start() throws {
        var arguments = [Self.executable, "-i", "127.0.0.1", "-p", String(port)]
        if let credentials { arguments += ["-u", credentials.user, "-P", credentials.password] }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_APPEND, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, Self.executable, &actions, nil, argv, environ) == 0 else { throw SOCKSProxyError.cannotStart }
        for _ in 0..<3000 {
            if acceptsConnections() { return }
            usleep(10_000)
        }
        throw SOCKSProxyError.cannotStart
    }

    /// SIGKILL: its tunnels are cut at once.
    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }

    var url: String {
        let userInfo = credentials.map { "\($0.user):\($0.password)@" } ?? ""
        return "socks5://\(userInfo)127.0.0.1:\(port)"
    }

    /// How many connections to `target` (`HOST:PORT`) the log reports.
    func connections(to target: String) -> Int {
        guard let file = fopen(logPath, "r") else { return 0 }
        defer { fclose(file) }
        var count = 0
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            if cString(line).contains("connected to \(target)") { count += 1 }
        }
        return count
    }

    private func acceptsConnections() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

enum SOCKSProxyError: Error { case cannotStart }

/// A loopback TCP port nothing listens on now (the kernel's choice).
func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
