import ClawSystem

/// The official OpenClaw CLI (the Node `openclaw`), which owns every command that is not ours.
/// A command word we do not have is handed to it with `execv`, arguments exactly as given, so its
/// stdin, terminal, signals and exit status are its own. Only that path looks for it: our own
/// commands never search PATH.
enum OfficialCLI {
    /// Names the official CLI's executable explicitly (PATH is then not searched).
    static let pathVariable = "OPENCLAW_OFFICIAL_CLI"
    /// Set in the environment of a handed-over process: a copy of this client reached through PATH
    /// refuses to hand over again instead of looping.
    static let loopGuardVariable = "OPENCLAW_HANDED_OVER"

    enum LocateFailure: Error, Equatable {
        case notFound
        /// `OPENCLAW_OFFICIAL_CLI` names something that cannot be run.
        case unusableVariable(path: String, reason: String)
        /// `OPENCLAW_OFFICIAL_CLI` names this client.
        case variableIsThisClient(path: String)
    }

    /// `OPENCLAW_OFFICIAL_CLI` if set, else the first `openclaw` on PATH that is not this binary
    /// (compared by device and inode, and by real path, so a symlink to ourselves is skipped).
    static func locate(_ environment: Environment) -> Result<String, LocateFailure> {
        let this = FileIdentity(path: ThisProcess.executablePath)
        if let path = environment.trimmed(pathVariable) {
            guard let candidate = FileIdentity(path: path) else {
                return .failure(.unusableVariable(path: path, reason: "no such file"))
            }
            if candidate.isSame(as: this) { return .failure(.variableIsThisClient(path: path)) }
            guard candidate.isExecutableFile else {
                return .failure(.unusableVariable(path: path, reason: "not an executable file"))
            }
            return .success(path)
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: false) {
            let path = (directory.isEmpty ? "." : String(directory)) + "/openclaw"
            guard let candidate = FileIdentity(path: path), candidate.isExecutableFile, !candidate.isSame(as: this) else { continue }
            return .success(path)
        }
        return .failure(.notFound)
    }

    /// Runs the official CLI in place of this process; returns only when it cannot.
    static func handOver(_ arguments: [String], command: String, environment: Environment) -> HandOverFailure {
        if environment[loopGuardVariable] != nil {
            return HandOverFailure("'\(command)' was handed over to another copy of this client (\(location(environment))), "
                + "not the official OpenClaw CLI; set \(pathVariable) to the official CLI's path")
        }
        let path: String
        switch locate(environment) {
        case .success(let found): path = found
        case .failure(let failure): return HandOverFailure(failure, command: command)
        }
        ThisProcess.setEnvironmentVariable(loopGuardVariable, to: "1")
        let reason = ThisProcess.replace(with: path, arguments: [path] + arguments)
        ThisProcess.removeEnvironmentVariable(loopGuardVariable)
        return HandOverFailure("cannot run the official OpenClaw CLI at \(path): \(reason)")
    }

    /// Where the official CLI is, for `help` and `version`: its path, or why there is none.
    static func location(_ environment: Environment) -> String {
        switch locate(environment) {
        case .success(let path): return path
        case .failure(.notFound): return "not found on PATH"
        case .failure(.unusableVariable(let path, let reason)): return "\(pathVariable)=\(path): \(reason)"
        case .failure(.variableIsThisClient(let path)): return "\(pathVariable)=\(path) is this client"
        }
    }
}

/// Why a command could not be handed over: one line, exit status 2.
struct HandOverFailure: Error {
    let message: String
    /// No official CLI anywhere (not a bad variable, not a loop).
    var isNotFound = false

    init(_ message: String) { self.message = message }

    init(_ failure: OfficialCLI.LocateFailure, command: String) {
        switch failure {
        case .notFound:
            isNotFound = true
            message = "'\(command)' is a command of the official OpenClaw CLI, which was not found on PATH; "
                + "install it (npm install -g openclaw) or set \(OfficialCLI.pathVariable) to its path"
        case .unusableVariable(let path, let reason):
            message = "\(OfficialCLI.pathVariable)=\(path): \(reason); '\(command)' is a command of the official OpenClaw CLI"
        case .variableIsThisClient(let path):
            message = "\(OfficialCLI.pathVariable)=\(path) is this client, not the official OpenClaw CLI"
        }
    }
}
