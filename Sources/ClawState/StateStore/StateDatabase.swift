@_spi(Engine) import ClawSystem
import CClawSQLite

/// The official OpenClaw state database, `<state>/state/openclaw.sqlite`: since July 2026 the
/// official CLI keeps its device identity, device tokens and stored secrets there. This client reads
/// and writes only the rows the official CLI itself would, in its format. On a machine with no
/// OpenClaw state at all it creates the file as a native client does (`createIfMissing`,
/// `NativeStateSchema`), never any other.
///
/// One connection serves a whole handshake (reading the identity, then the token rows): SQLite reads
/// the schema once per connection, which is most of what a one-shot command spends here. `close()`
/// ends it; the next use opens another.
@_spi(Engine) public final class StateDatabase: @unchecked Sendable, Equatable {
    @_spi(Engine) public let path: String
    /// Where the device identity lock's first file lives (`IdentityCreationLock`): the
    /// official CLI's `os.tmpdir()`, from the command's environment.
    @_spi(Engine) public let temporaryDirectory: String
    private let lock = TransportLock()
    private var connection: SQLiteConnection?

    /// How long a statement waits for another process's lock (a gateway, the CLI, `doctor`).
    static let busyTimeoutMs: Int32 = 5_000

    @_spi(Engine) public init(path: String, temporaryDirectory: String = "/tmp") {
        self.path = path
        self.temporaryDirectory = temporaryDirectory
    }

    deinit { connection?.close() }

    @_spi(Engine) public static func == (lhs: StateDatabase, rhs: StateDatabase) -> Bool { lhs.path == rhs.path }

    @_spi(Engine) public static func path(stateDirectory: String) -> String {
        Paths.join(stateDirectory, "state", "openclaw.sqlite")
    }

    /// The state directory's database, or nil when it has none (an install older than July 2026, or
    /// none at all). Only a look at the directory: nothing is opened.
    @_spi(Engine) public static func find(stateDirectory: String) -> StateDatabase? {
        let path = path(stateDirectory: stateDirectory)
        return FileSystem.exists(path) ? StateDatabase(path: path) : nil
    }

    /// Creates the state directory and `<state>/state` (0700) and an empty database file (0600) when
    /// they are missing, as a native client does before it creates its tables; what exists is left as
    /// it is. True when this call created the file.
    func createIfMissing() throws(StateDatabaseError) -> Bool {
        do {
            try FileSystem.makeDirectories(Paths.parent(path), mode: 0o700)
            return try FileSystem.createEmptyFile(path, mode: 0o600)
        } catch {
            throw StateDatabaseError(path: path, problem: .cannotWrite(error.reason))
        }
    }

    /// Every file of the database family (the database, `-wal`, `-shm`, `-journal`) that exists made
    /// 0600, as the native client leaves the files it created. SQLite gives its side files the
    /// database's own mode, so this only repairs what someone else changed; failures change nothing.
    func securePermissions() {
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] where FileSystem.exists(file) {
            if let status = try? FileSystem.linkStatus(file), status.kind == .regular, status.permissions != 0o600 {
                try? FileSystem.setPermissions(file, 0o600)
            }
        }
    }

    /// Runs `body` on the open connection, opening it first if need be.
    func withConnection<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(StateDatabaseError) -> T {
        let result = lock.withLock { () -> Result<T, SQLiteError> in
            do throws(SQLiteError) {
                let open: SQLiteConnection
                if let connection { open = connection } else {
                    open = try SQLiteConnection(path: path, busyTimeoutMs: Self.busyTimeoutMs)
                    connection = open
                }
                return .success(try body(open))
            } catch {
                return .failure(error)
            }
        }
        do { return try result.get() } catch { throw StateDatabaseError(path: path, problem: Self.problem(error)) }
    }

    /// Closes the connection, if open.
    @_spi(Engine) public func close() {
        lock.withLock {
            connection?.close()
            connection = nil
        }
    }

    static func problem(_ error: SQLiteError) -> StateDatabaseError.Problem {
        if error.isBusy { return .busy(seconds: Int(busyTimeoutMs / 1000)) }
        if error.isCorrupt { return .corrupt }
        if error.isSchema { return .unknownSchema(error.message) }
        if error.isWriteRefused { return .cannotWrite(error.message) }
        return .unreadable(error.message)
    }
}
