/// The official OpenClaw state database, `<state>/state/openclaw.sqlite`: since July 2026 the
/// official CLI keeps its device identity, device tokens and stored secrets there. This client reads
/// and writes only the rows the official CLI itself would, in its format, and never creates the file.
public struct StateDatabase: Sendable, Equatable {
    public let path: String

    /// How long a statement waits for another process's lock (a gateway, the CLI, `doctor`).
    static let busyTimeoutMs: Int32 = 5_000

    public init(path: String) { self.path = path }

    public static func path(stateDirectory: String) -> String {
        Paths.join(stateDirectory, "state", "openclaw.sqlite")
    }

    /// The state directory's database, or nil when it has none (an install older than July 2026, or
    /// none at all). Only a look at the directory: nothing is opened.
    public static func find(stateDirectory: String) -> StateDatabase? {
        let path = path(stateDirectory: stateDirectory)
        return FileSystem.exists(path) ? StateDatabase(path: path) : nil
    }

    /// Opens the database, runs `body` and closes it again, on every path.
    func withConnection<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(StateDatabaseError) -> T {
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: path, busyTimeoutMs: Self.busyTimeoutMs)
            defer { connection.close() }
            return try body(connection)
        } catch {
            throw StateDatabaseError(path: path, problem: Self.problem(error))
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
