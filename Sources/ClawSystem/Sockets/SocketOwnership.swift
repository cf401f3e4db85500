import Glibc

/// Which process a listening TCP socket belongs to, read from Linux's `/proc`: the kernel's socket
/// tables (`/proc/net/tcp`, `/proc/net/tcp6`) name each socket's inode, and `/proc/PID/fd` links name
/// the inodes a process holds (`socket:[INODE]`).
@_spi(Engine) public enum SocketOwnership {
    /// Whether the listeners on a port are all one process's.
    @_spi(Engine) public enum Verdict: Sendable, Equatable {
        /// Nothing listens on the port (yet).
        case notListening
        /// Every listener on the port is a socket the process holds.
        case owned
        /// Something else listens on the port, besides the process (`ownerListening`) or instead of it.
        case foreign(ownerListening: Bool)
        /// `/proc` could not be read, so ownership cannot be told.
        case unknown
    }

    /// Whether every TCP listener on `port` (any local address, IPv4 and IPv6) belongs to process `pid`.
    @_spi(Engine) public static func listeners(onPort port: Int, ownedBy pid: Int32) -> Verdict {
        guard let listening = listeningInodes(port: port) else { return .unknown }
        if listening.isEmpty { return .notListening }
        guard let held = socketInodes(process: pid) else { return .unknown }
        let owned = listening.filter(held.contains).count
        return owned == listening.count ? .owned : .foreign(ownerListening: owned > 0)
    }

    /// Inodes of the sockets in LISTEN state on local `port`; nil when neither table can be read.
    @_spi(Engine) public static func listeningInodes(port: Int) -> [UInt64]? {
        var found: [UInt64] = []
        var readAny = false
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let bytes = try? FileSystem.readFile(table, limit: 64 << 20) else { continue }
            readAny = true
            found += listeningInodes(table: bytes, port: port)
        }
        return readAny ? found : nil
    }

    /// The LISTEN rows for `port` of one table's text. A row is
    /// `sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …`, addresses as
    /// `HEXADDR:HEXPORT`, state `0A` for LISTEN.
    static func listeningInodes(table: [UInt8], port: Int) -> [UInt64] {
        var inodes: [UInt64] = []
        for line in table.split(separator: UInt8(ascii: "\n")).dropFirst() {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count > 9, fields[3].elementsEqual("0A".utf8) else { continue }
            let local = fields[1]
            guard let colon = local.lastIndex(of: UInt8(ascii: ":")),
                  let localPort = Int(String(decoding: local[(colon + 1)...], as: UTF8.self), radix: 16),
                  localPort == port,
                  let inode = UInt64(String(decoding: fields[9], as: UTF8.self)), inode != 0
            else { continue }
            inodes.append(inode)
        }
        return inodes
    }

    /// Inodes of the sockets process `pid` holds open; nil when its descriptors cannot be listed
    /// (it has gone, or belongs to another user).
    @_spi(Engine) public static func socketInodes(process pid: Int32) -> Set<UInt64>? {
        let directory = "/proc/\(pid)/fd"
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var inodes: Set<UInt64> = []
        var target = [CChar](repeating: 0, count: 128)
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.first?.isNumber == true else { continue }
            let count = readlink(directory + "/" + name, &target, target.count - 1)
            guard count > 0 else { continue }
            let text = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("socket:["), text.hasSuffix("]"),
                  let inode = UInt64(text.dropFirst(8).dropLast())
            else { continue }
            inodes.insert(inode)
        }
        return inodes
    }
}
