
/// Why the device identity or the device-token store could not be used. Descriptions are one line,
/// name the file, and never contain key material or tokens.
@_spi(Engine) public enum IdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// The file exists but is not an identity this client understands; it is left untouched.
    case corrupt(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case crypto(operation: String)
    /// The state database (identity row or device tokens) could not be used.
    case stateDatabase(StateDatabaseError)

    @_spi(Engine) public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read device identity \(path): \(reason)"
        case .corrupt(let path, let reason):
            return "device identity \(path) is unusable (\(reason)); move it aside to create a new identity"
                + " (the gateway will then ask to pair this device again)"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .crypto(let operation):
            return "device identity: \(operation) failed"
        case .stateDatabase(let error):
            return error.description
        }
    }
}
