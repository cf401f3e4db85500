
/// Why the OpenClaw state database could not be used. One line each, naming the file and what to do;
/// never a key, token or secret read from it.
@_spi(Engine) public struct StateDatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public enum Problem: Sendable, Equatable {
        /// Could not be opened or read (permissions, I/O); SQLite's reason.
        case unreadable(String)
        /// Not a database, or a damaged one.
        case corrupt
        /// Another process held its lock past the busy timeout.
        case busy(seconds: Int)
        /// A table or column this client reads is missing; SQLite's reason names it.
        case unknownSchema(String)
        /// A change could not be written (read-only file, full disk); SQLite's reason.
        case cannotWrite(String)
        /// The identity row is there but unusable (the official CLI refuses it too).
        case invalidIdentity(String)
        /// A pre-database identity file still waits for `openclaw doctor --fix` to import it: the
        /// official tools refuse to load or create an identity until then.
        case legacyIdentityAwaitingImport(path: String)
        /// A pre-database device-token file still waits for its migration: the official token store
        /// refuses to work until `openclaw doctor --fix` has run.
        case legacyDeviceAuthAwaitingImport(path: String)
        /// Another process (the official CLI, `openclaw doctor --fix`, an Apple app) held the device
        /// identity lock for the whole busy timeout while it created or imported the identity.
        case identityLockBusy(path: String, seconds: Int)
        /// The device identity lock could not be created or taken (its directory is not a private one
        /// of this user's, or the file cannot be opened).
        case identityLockUnusable(path: String, reason: String)
    }

    @_spi(Engine) public let path: String
    @_spi(Engine) public let problem: Problem

    @_spi(Engine) public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    @_spi(Engine) public var description: String {
        switch problem {
        case .unreadable(let reason):
            return "cannot read the OpenClaw state database \(path): \(reason); check that it is yours and readable"
        case .corrupt:
            return "the OpenClaw state database \(path) is damaged or not a database; run `openclaw doctor`"
        case .busy(let seconds):
            return "the OpenClaw state database \(path) stayed locked by another process for \(seconds) s;"
                + " try again when it is done"
        case .unknownSchema(let reason):
            return "the OpenClaw state database \(path) does not have the layout this client knows (\(reason));"
                + " run `openclaw doctor`, or update openclaw"
        case .cannotWrite(let reason):
            return "cannot write the OpenClaw state database \(path): \(reason)"
        case .invalidIdentity(let reason):
            return "the device identity in the OpenClaw state database \(path) is unusable (\(reason));"
                + " run `openclaw doctor --fix`"
        case .legacyIdentityAwaitingImport(let legacy):
            return "the device identity \(legacy) has not been imported into \(path) yet;"
                + " run `openclaw doctor --fix`, then try again"
        case .legacyDeviceAuthAwaitingImport(let legacy):
            return "the device tokens in \(legacy) have not been migrated into \(path) yet;"
                + " stop the gateway and run `openclaw doctor --fix`"
        case .identityLockBusy(let lock, let seconds):
            return "another OpenClaw process held the device identity lock \(lock) for \(seconds) s while creating"
                + " or importing the identity of \(path); try again when it is done"
        case .identityLockUnusable(let lock, let reason):
            return "cannot take the device identity lock \(lock) for \(path): \(reason)"
        }
    }
}
