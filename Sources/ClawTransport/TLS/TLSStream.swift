@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
import CClawOpenSSL

/// TLS over a TCP stream via OpenSSL, on the non-blocking socket: OpenSSL's WANT_READ/WANT_WRITE become
/// `poll(2)` waits with deadlines. SSL calls are serialised by a lock that is never held while waiting,
/// so one reader and one writer thread can share the stream.
@_spi(Engine) public final class TLSStream: ByteStream, @unchecked Sendable {
    @_spi(Engine) public let tcp: TCPStream
    private let ssl: OpaquePointer
    private let lock = TransportLock()
    private var isClosed = false
    /// The last SSL_read wanted more from the socket: whatever OpenSSL still holds is a partial record.
    private var inputExhausted = false
    /// SHA-256 of the peer's leaf certificate (DER), when it sent one.
    @_spi(Engine) public private(set) var peerCertificateSHA256: [UInt8]? = nil
    /// OpenSSL's packed error codes from the last failed call, to tell a peer that speaks no TLS from other failures.
    private var lastErrorCodes: [UInt] = []

    @_spi(Engine) public var fileDescriptor: Int32 { tcp.fileDescriptor }

    /// OpenSSL's socket BIO writes with write(2) and so raises SIGPIPE; ours sends with MSG_NOSIGNAL.
    nonisolated(unsafe) private static let socketMethod: OpaquePointer? = openclaw_nosigpipe_method_new()

    private init(tcp: TCPStream, ssl: OpaquePointer) {
        self.tcp = tcp
        self.ssl = ssl
    }

    /// Wraps a new SSL object around the socket; frees it (and closes the socket) on failure.
    private static func make(tcp: TCPStream, ssl: OpaquePointer) throws(TransportError) -> TLSStream {
        guard let method = socketMethod, openclaw_SSL_set_nosigpipe_fd(ssl, method, tcp.fileDescriptor) == 1 else {
            SSL_free(ssl)
            tcp.close()
            throw .tls("cannot attach TLS to the socket: \(CryptoError.drainOpenSSLErrors())")
        }
        openclaw_SSL_enable_partial_writes(ssl)
        // Read whole socket buffers, not one record header and body at a time: far fewer recv calls.
        SSL_set_read_ahead(ssl, 1)
        return TLSStream(tcp: tcp, ssl: ssl)
    }

    deinit { SSL_free(ssl) }

    @_spi(Engine) public static func client(over tcp: TCPStream, options: TLSClientOptions, deadline: Deadline) throws(TransportError) -> TLSStream {
        let host = options.serverName
        OpenSSLRuntime.prepareForTLS()
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            tcp.close()
            throw .tls("cannot create a TLS context: \(CryptoError.drainOpenSSLErrors())")
        }
        // The SSL object keeps its own reference to the context.
        defer { SSL_CTX_free(context) }
        _ = openclaw_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        openclaw_SSL_CTX_ignore_unexpected_eof(context)
        if let pin = options.pinnedSHA256, pin.count != 32 {
            tcp.close()
            throw .tls("a SHA-256 fingerprint has 32 bytes, not \(pin.count)")
        }
        var trust = CertificateTrust()
        if options.pinnedSHA256 == nil {
            // Trust is looked up only when the chain is checked (a pin replaces it).
            trust = options.trust ?? .system(environment: .current())
            if let path = options.caBundlePath { trust.extraBundles.insert(path, at: 0) }
            do throws(TransportError) {
                try trust.install(into: context)
            } catch {
                tcp.close()
                throw error
            }
        }
        guard let ssl = SSL_new(context) else {
            tcp.close()
            throw .tls("cannot create a TLS session: \(CryptoError.drainOpenSSLErrors())")
        }
        let stream = try make(tcp: tcp, ssl: ssl)
        let isAddress = isIPAddress(host)
        // RFC 6066: SNI carries host names only, never address literals.
        if !isAddress && !host.isEmpty { _ = openclaw_SSL_set_tlsext_host_name(ssl, host) }
        if options.pinnedSHA256 == nil {
            SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
            let named = isAddress ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) : SSL_set1_host(ssl, host)
            guard named == 1 else {
                stream.close()
                throw .tls("cannot check the certificate against \(host)")
            }
        } else {
            // Pinning replaces chain and name checks: the fingerprint is compared after the handshake.
            SSL_set_verify(ssl, SSL_VERIFY_NONE, nil)
        }
        do throws(TransportError) {
            try stream.handshake(deadline: deadline, isClient: true, host: host)
        } catch {
            stream.close()
            if case .certificateRejected(let host, let detail, false) = error, options.pinnedSHA256 == nil, trust.hasNoStore {
                throw .certificateRejected(host: host, detail: detail + "; no CA store was found on this machine"
                    + " (install the ca-certificates package, or name a bundle with SSL_CERT_FILE)", nameMismatch: false)
            }
            throw error
        }
        if let pin = options.pinnedSHA256 {
            guard let actual = stream.peerCertificateSHA256 else {
                stream.close()
                throw .tls("\(host) presented no certificate")
            }
            guard actual == pin else {
                stream.close()
                throw .tls("certificate fingerprint mismatch for \(host): expected \(TLSFingerprint.format(pin)), got \(TLSFingerprint.format(actual))")
            }
        }
        return stream
    }

    @_spi(Engine) public static func server(over tcp: TCPStream, context: TLSServerContext, deadline: Deadline) throws(TransportError) -> TLSStream {
        ERR_clear_error()
        guard let ssl = SSL_new(context.context) else {
            tcp.close()
            throw .tls("cannot create a TLS session: \(CryptoError.drainOpenSSLErrors())")
        }
        let stream = try make(tcp: tcp, ssl: ssl)
        do throws(TransportError) {
            try stream.handshake(deadline: deadline, isClient: false, host: tcp.remoteAddress?.host ?? "the client")
        } catch {
            stream.close()
            throw error
        }
        return stream
    }

    private func handshake(deadline: Deadline, isClient: Bool, host: String) throws(TransportError) {
        do throws(TransportError) {
            _ = try perform("waiting for the TLS handshake", deadline: deadline) { ssl in
                isClient ? SSL_connect(ssl) : SSL_accept(ssl)
            }
        } catch {
            guard isClient else { throw error }
            let (result, codes) = lock.withLock { (SSL_get_verify_result(ssl), lastErrorCodes) }
            if result != Int(X509_V_OK) {
                let text = lock.withLock { CertificateRefusal.explain(verifyResult: result, ssl: ssl) }
                let nameMismatch = result == Int(X509_V_ERR_HOSTNAME_MISMATCH) || result == Int(X509_V_ERR_IP_ADDRESS_MISMATCH)
                throw .certificateRejected(host: host, detail: text, nameMismatch: nameMismatch)
            }
            // A plain HTTP or WebSocket port answers the ClientHello with plaintext (a gateway's HTTP
            // server: 400 Bad Request) or closes: one message for both, whatever OpenSSL made of the bytes.
            switch error {
            case .closed: throw .tls("handshake with \(host) failed: \(Self.noTLSAnswer)")
            case .tls where codes.contains(where: { openclaw_ssl_error_means_not_tls($0) == 1 }):
                throw .tls("handshake with \(host) failed: \(Self.noTLSAnswer)")
            case .tls(let reason): throw .tls("handshake with \(host) failed: \(reason)")
            default: throw error
            }
        }
        lock.withLock {
            if let certificate = openclaw_SSL_get1_peer_certificate(ssl) {
                peerCertificateSHA256 = Self.fingerprint(certificate)
                X509_free(certificate)
            }
        }
    }

    /// Why a handshake failed when the server answered in plaintext or closed the connection.
    static let noTLSAnswer = "the server did not answer in TLS (is it a TLS port? try ws://)"

    static func fingerprint(_ certificate: OpaquePointer) -> [UInt8]? {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else { return nil }
        return Digest.sha256(der)
    }

    private static func isIPAddress(_ host: String) -> Bool { SocketAddress.isNumeric(host) }

    @_spi(Engine) public var hasBufferedInput: Bool {
        // With read-ahead, whole records can wait in OpenSSL's buffer where poll cannot see them; once
        // SSL_read has asked for more, what is left there is incomplete and needs the socket anyway.
        lock.withLock { !isClosed && (SSL_pending(ssl) > 0 || (SSL_has_pending(ssl) == 1 && !inputExhausted)) }
    }

    @_spi(Engine) public func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(TransportError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let size = Int32(min(buffer.count, Int(Int32.max)))
        return Int(try perform("waiting for data", deadline: deadline, isRead: true) { ssl in SSL_read(ssl, base, size) })
    }

    @_spi(Engine) public func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(TransportError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let size = Int32(min(bytes.count - offset, 1 << 30))
            let written = try perform("waiting to send data", deadline: deadline) { ssl in SSL_write(ssl, base + offset, size) }
            if written == 0 { throw .closed("the peer closed the TLS session") }
            offset += Int(written)
        }
    }

    /// Runs one SSL call until it succeeds, polling the socket for what OpenSSL wants; 0 at a clean end of stream.
    private func perform(_ what: String, deadline: Deadline, isRead: Bool = false,
                         _ call: (OpaquePointer) -> Int32) throws(TransportError) -> Int32 {
        guard tcp.handle.acquire() else { throw .closed("the stream was closed") }
        defer { tcp.handle.release() }
        while true {
            lock.lock()
            if isClosed {
                lock.unlock()
                throw .closed("the stream was closed")
            }
            ERR_clear_error()
            let result = call(ssl)
            if result > 0 {
                if isRead { inputExhausted = false }
                lock.unlock()
                return result
            }
            let code = SSL_get_error(ssl, result)
            let systemError = SystemError.last
            let (codes, reason) = CryptoError.drainOpenSSLErrorQueue()
            if isRead && code == SSL_ERROR_WANT_READ { inputExhausted = true }
            lastErrorCodes = codes
            lock.unlock()
            switch code {
            case SSL_ERROR_WANT_READ:
                guard try Poll.wait(fd: tcp.fileDescriptor, events: Poll.readable, deadline: deadline) else { throw .timedOut(what) }
            case SSL_ERROR_WANT_WRITE:
                guard try Poll.wait(fd: tcp.fileDescriptor, events: Poll.writable, deadline: deadline) else { throw .timedOut(what) }
            case SSL_ERROR_ZERO_RETURN:
                return 0
            case SSL_ERROR_SYSCALL:
                if systemError.isInterrupted { continue }
                if systemError.meansPeerClosed {
                    throw .closed(reason.isEmpty ? "the peer closed the connection" : reason)
                }
                throw .io("\(what): \(systemError)")
            default:
                throw .tls(reason.isEmpty ? "error \(code)" : reason)
            }
        }
    }

    /// Sends close_notify (best effort, without waiting) and closes the socket. Safe to call twice.
    @_spi(Engine) public func close() {
        lock.withLock {
            if isClosed { return }
            isClosed = true
            if tcp.handle.acquire() {
                ERR_clear_error()
                _ = SSL_shutdown(ssl)
                ERR_clear_error()
                tcp.handle.release()
            }
        }
        tcp.close()
    }
}
