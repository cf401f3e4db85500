@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto

/// The lock the official tools hold while they create or import a state database's device identity
/// (the official CLI, `openclaw doctor --fix` and the Swift runtime of the Apple apps): an exclusive
/// transaction (`BEGIN EXCLUSIVE`, waiting up to 5 s) on a small SQLite file named after the
/// database, `device-identity.<first 8 hex digits of SHA-256 of its canonical path>.lock.sqlite`.
/// Two places have held it: `<tmpdir>/openclaw-<uid>/` (the Swift runtime, and the CLI's first
/// releases with the database) and `<state>/tmp/openclaw-<uid>/` (the CLI from August 2026 on). This
/// client takes both, in that order, as the official releases between them did, so it waits for
/// whichever of them is at work; the kernel drops the lock when its holder exits.
final class IdentityCreationLock {
    static let busyTimeoutMs: Int32 = 5_000

    private var held: [SQLiteConnection]

    private init(held: [SQLiteConnection]) { self.held = held }

    deinit { release() }

    /// The lock files for `databasePath`, in the order they are taken (one, when both places are the same).
    static func paths(databasePath: String, stateDirectory: String, temporaryDirectory: String, userID: UInt32) -> [String] {
        let canonicalDatabase = FileSystem.canonicalPath(databasePath)
        let name = "device-identity." + String(Hex.encode(Digest.sha256(Array(canonicalDatabase.utf8))).prefix(8)) + ".lock.sqlite"
        let directory = "openclaw-\(userID)"
        let candidates = [
            Paths.join(Paths.resolve(temporaryDirectory, currentDirectory: FileSystem.currentDirectory()), directory, name),
            Paths.join(FileSystem.canonicalPath(stateDirectory), "tmp", directory, name),
        ]
        var seen: Set<String> = []
        return candidates.filter { seen.insert(FileSystem.canonicalPath($0)).inserted }
    }

    /// Node's `os.tmpdir()`: `TMPDIR`, `TMP` or `TEMP` (the first that is set and not empty), else
    /// `/tmp`, without a trailing slash.
    static func temporaryDirectory(_ environment: Environment) -> String {
        var directory = ["TMPDIR", "TMP", "TEMP"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "/tmp"
        if directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        return directory
    }

    /// Takes every lock in `paths`, creating their directories (0700, this user's, never a symbolic
    /// link) and files (0600) as the official tools do, waiting up to 5 s in all. While it waits it asks
    /// `stopWaiting` now and then whether the lock is still needed (the identity another process was
    /// creating under it is there now): then it lets go of what it took and returns nil.
    static func acquire(paths: [String], databasePath: String,
                        stopWaiting: () -> Bool) throws(StateDatabaseError) -> IdentityCreationLock? {
        let deadline = Deadline.after(seconds: Double(busyTimeoutMs) / 1000)
        var held: [SQLiteConnection] = []
        for path in paths {
            if let reason = prepare(path) {
                release(held)
                throw StateDatabaseError(path: databasePath, problem: .identityLockUnusable(path: path, reason: reason))
            }
            let connection: SQLiteConnection
            do {
                // Each attempt waits a moment, as SQLite's busy handler would, before looking again.
                connection = try SQLiteConnection(path: path, busyTimeoutMs: 100)
            } catch {
                release(held)
                throw StateDatabaseError(path: databasePath, problem: .identityLockUnusable(path: path, reason: error.message))
            }
            while true {
                do {
                    // The lock file stays empty: no journal on disk, nothing ever written or committed.
                    // (Even this pragma waits while another process holds the lock.)
                    try connection.rows("PRAGMA journal_mode = MEMORY")
                    try connection.rows("BEGIN EXCLUSIVE")
                    held.append(connection)
                    break
                } catch where error.isBusy && !deadline.hasPassed {
                    if stopWaiting() {
                        release(held + [connection])
                        return nil
                    }
                } catch {
                    release(held + [connection])
                    let problem: StateDatabaseError.Problem = error.isBusy
                        ? .identityLockBusy(path: path, seconds: Int(busyTimeoutMs / 1000))
                        : .identityLockUnusable(path: path, reason: error.message)
                    throw StateDatabaseError(path: databasePath, problem: problem)
                }
            }
        }
        return IdentityCreationLock(held: held)
    }

    /// Lets go of every lock, the last taken first.
    func release() {
        Self.release(held)
        held = []
    }

    private static func release(_ connections: [SQLiteConnection]) {
        for connection in connections.reversed() {
            _ = try? connection.rows("ROLLBACK")
            connection.close()
        }
    }

    /// The lock's directory as the official tools check it (created 0700 if missing; then it must be
    /// a real directory, not a symbolic link, owned by this user, and is made 0700 if it is not), and
    /// the lock file (created empty, 0600). nil when ready, else why not.
    private static func prepare(_ path: String) -> String? {
        let directory = Paths.parent(path)
        do {
            try FileSystem.makeDirectories(directory, mode: 0o700)
            let status = try FileSystem.linkStatus(directory)
            guard status.kind == .directory else {
                return "\(directory) is \(status.kind == .symbolicLink ? "a symbolic link" : "not a directory")"
            }
            guard status.ownerID == FileSystem.currentUserID() else { return "\(directory) belongs to another user" }
            if status.permissions != 0o700 { try FileSystem.setPermissions(directory, 0o700) }
            _ = try FileSystem.createEmptyFile(path, mode: 0o600)
            return nil
        } catch {
            return error.reason
        }
    }
}
