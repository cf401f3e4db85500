@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawState

/// The device identity a session signs with, loaded once, when first needed. The handshake asks for
/// it after sending the WebSocket upgrade, so reading the key file and OpenSSL's first use of the key
/// (about a third of an authenticated one-shot command's own work) overlap the gateway's answer. A
/// failure is kept and reported before any connection error, as if the key had been loaded first.
@_spi(Engine) public final class DeviceIdentitySource: @unchecked Sendable {
    private let load: @Sendable () throws(IdentityError) -> DeviceIdentity
    private let lock = TransportLock()
    private var result: Result<DeviceIdentity, IdentityError>?

    /// Loads with `load` on first use (e.g. `DeviceIdentity.loadOrCreate(stateDirectory:)`).
    @_spi(Engine) public init(_ load: @escaping @Sendable () throws(IdentityError) -> DeviceIdentity) {
        self.load = load
    }

    /// An identity already in hand.
    @_spi(Engine) public init(_ identity: DeviceIdentity) {
        self.load = { identity }
        self.result = .success(identity)
    }

    /// The identity, loading it on the first call; the same answer (or error) every time after.
    @_spi(Engine) public func identity() throws(IdentityError) -> DeviceIdentity {
        let result = lock.withLock { () -> Result<DeviceIdentity, IdentityError> in
            if let result = self.result { return result }
            let loaded: Result<DeviceIdentity, IdentityError>
            do throws(IdentityError) { loaded = .success(try load()) } catch { loaded = .failure(error) }
            self.result = loaded
            return loaded
        }
        return try result.get()
    }
}
