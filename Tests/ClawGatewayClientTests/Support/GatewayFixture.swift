import Glibc
import ClawGatewayClient
import ClawGatewayTesting

/// A test gateway with a frame log, and configurations pointing at it.
final class GatewayFixture: @unchecked Sendable {
    let gateway: TestGateway
    let logPath: String
    let token = "test-token"

    init(_ arguments: [String] = [], port: Int = 0) throws {
        var template = Array("/tmp/claw-client-log.XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        precondition(fd >= 0)
        close(fd)
        logPath = cString(template)
        gateway = try TestGateway.start(arguments: ["--port", String(port), "--token", token, "--log", logPath] + arguments)
    }

    deinit {
        gateway.stop()
        unlink(logPath)
    }

    var configuration: GatewayConfiguration {
        var configuration = GatewayConfiguration(url: gateway.url)
        configuration.token = Secret(token)
        return configuration
    }

    /// The frames the gateway received (`dir: in`), in order.
    func received() -> [JSONValue] { frames(#"in"#) }

    /// The frames the gateway sent (`dir: out`), in order.
    func sent() -> [JSONValue] { frames(#"out"#) }

    /// The frames logged in one direction. Only those lines are parsed: the outbound ones (a long
    /// reply's deltas) can be megabytes.
    private func frames(_ direction: String) -> [JSONValue] {
        let prefix = Array(#"{"dir":"\#(direction)""#.utf8)
        return logBytes().split(separator: UInt8(ascii: "\n"))
            .filter { $0.starts(with: prefix) }
            .compactMap { try? JSONValue(parsing: Array($0))["frame"] }
    }

    func logLines() -> [JSONValue] {
        logBytes().split(separator: UInt8(ascii: "\n")).compactMap { try? JSONValue(parsing: Array($0)) }
    }

    func logBytes() -> [UInt8] {
        guard let file = fopen(logPath, "r") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// How many keepalive lines of this kind the log holds (`ping`, `pong`, `dropped`).
    func count(of direction: String) -> Int {
        let prefix = Array(#"{"dir":"\#(direction)""#.utf8)
        return logBytes().split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: prefix) }.count
    }

    /// Requests of `method` the gateway received.
    func requests(_ method: String) -> [JSONValue] {
        received().filter { $0["type"]?.stringValue == "req" && $0["method"]?.stringValue == method }
    }
}

/// Waits (polling every 10 ms, an event and not a fixed sleep) until `condition` holds; false after 30 s.
func eventually(_ condition: () throws -> Bool) async rethrows -> Bool {
    for _ in 0..<3000 {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// This process's open sockets connected to `port` on loopback (from /proc/net/tcp and /proc/self/fd).
func socketsConnected(toPort port: Int) -> Int {
    let inodes = Set(tcpInodes(remotePort: port))
    var count = 0
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var target = [CChar](repeating: 0, count: 256)
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
        guard length > 0 else { continue }
        target[length] = 0
        let link = cString(target)
        if link.hasPrefix("socket:["), let inode = Int(link.dropFirst(8).dropLast()), inodes.contains(inode) { count += 1 }
    }
    return count
}

private func tcpInodes(remotePort port: Int) -> [Int] {
    guard let file = fopen("/proc/net/tcp", "r") else { return [] }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    var inodes: [Int] = []
    let wanted = String(port, radix: 16, uppercase: true)
    while fgets(&line, Int32(line.count), file) != nil {
        let fields = cString(line).split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 9 else { continue }
        let remote = fields[2].split(separator: ":")
        guard remote.count == 2, remote[1].count == 4,
              Int(remote[1], radix: 16) == Int(wanted, radix: 16), let inode = Int(fields[9]) else { continue }
        inodes.append(inode)
    }
    return inodes
}

/// The library's I/O threads (named `claw-io`) alive in this process.
func ioThreadCount() -> Int {
    guard let dir = opendir("/proc/self/task") else { return -1 }
    defer { closedir(dir) }
    var count = 0
    var name = [CChar](repeating: 0, count: 64)
    while let entry = readdir(dir) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        guard task.first != ".", let file = fopen("/proc/self/task/\(task)/comm", "r") else { continue }
        defer { fclose(file) }
        if fgets(&name, Int32(name.count), file) != nil, cString(name).hasPrefix("claw-io") { count += 1 }
    }
    return count
}

/// A loopback listener that never accepts: the kernel completes TCP connects into its backlog, and
/// the client then waits for a WebSocket upgrade answer that never comes.
final class SilentListener {
    let descriptor: Int32
    let port: Int

    init() {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        listen(descriptor, 16)
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: bound.sin_port))
    }

    deinit { close(descriptor) }

    /// Whether a client's connect is waiting in the backlog.
    var hasWaitingConnection: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }
}

/// The text of a NUL-terminated C buffer.
func cString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
