// STUB: the wire work (issue 2) fills these in. The signatures are the contract.

/// How a `wss://` client checks the server.
public struct TLSClientOptions: Sendable {
    /// Sent as SNI and checked against the certificate (unless pinned).
    public var serverName: String
    /// An extra PEM CA bundle, trusted in addition to the system store.
    public var caBundlePath: String?
    /// SHA-256 of the leaf certificate (DER). When set, a matching certificate is accepted
    /// even if self-signed, and a different one is refused.
    public var pinnedSHA256: [UInt8]?

    public init(serverName: String, caBundlePath: String? = nil, pinnedSHA256: [UInt8]? = nil) {
        self.serverName = serverName
        self.caBundlePath = caBundlePath
        self.pinnedSHA256 = pinnedSHA256
    }
}

/// A certificate and key for the server side (the simulator's `--tls-cert`/`--tls-key`).
public final class TLSServerContext: @unchecked Sendable {
    public init(certificatePath: String, keyPath: String) throws(TransportError) { fatalError("not implemented") }
}

/// TLS over a TCP stream via OpenSSL.
public final class TLSStream: ByteStream, @unchecked Sendable {
    public var fileDescriptor: Int32 { fatalError() }

    public static func client(over tcp: TCPStream, options: TLSClientOptions, deadline: Deadline) throws(TransportError) -> TLSStream {
        fatalError("not implemented")
    }

    public static func server(over tcp: TCPStream, context: TLSServerContext, deadline: Deadline) throws(TransportError) -> TLSStream {
        fatalError("not implemented")
    }

    public var hasBufferedInput: Bool { fatalError() }
    public func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(TransportError) -> Int { fatalError() }
    public func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(TransportError) { fatalError() }
    public func close() { fatalError() }
}
