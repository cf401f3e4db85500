@_spi(Engine) import ClawSystem

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

    /// Why a command line goes to the official CLI.
    enum HandOverReason: Equatable {
        /// A command word we do not have (or `gateway` with another subcommand than `call`).
        case command(String)
        /// `--container NAME`, or `OPENCLAW_CONTAINER` (`fromVariable`) for `gateway call`: it runs the
        /// command in a container.
        case container(String, fromVariable: Bool)
        /// `agent --local`: the official CLI's embedded runtime runs the turn, with no gateway.
        case embeddedAgent

        /// What is handed over, for messages: `'doctor'`, `--container`.
        var subject: String {
            switch self {
            case .command(let word): return "'\(word)'"
            case .container(_, let fromVariable): return fromVariable ? containerVariable : "--container"
            case .embeddedAgent: return "'agent --local'"
            }
        }
    }

    /// The official CLI's variable for `--container`'s default, and the one it sets inside the container.
    static let containerVariable = "OPENCLAW_CONTAINER"
    static let containerBypassVariable = "OPENCLAW_CLI_CONTAINER_BYPASS"

    /// The container a parsed command line asks for: `--container NAME` for any command; for `gateway
    /// call`, the command both CLIs answer, also `OPENCLAW_CONTAINER` (unless the official CLI's bypass is
    /// set, as it is inside the container). Our own commands ignore the variable.
    static func containerHandOver(_ invocation: Invocation, environment: Environment) -> HandOverReason? {
        if let name = invocation.options.global.container { return .container(name, fromVariable: false) }
        guard invocation.command.name == GatewayCallCommand.parent, environment[containerBypassVariable] != "1",
              let name = environment.trimmed(containerVariable) else { return nil }
        return .container(name, fromVariable: true)
    }

    /// `agent --local` is the official CLI's: its embedded runtime, which no client of the gateway has.
    static func embeddedHandOver(_ invocation: Invocation) -> HandOverReason? {
        invocation.command.name == "agent" && invocation.options.agent.local ? .embeddedAgent : nil
    }

    /// Runs the official CLI in place of this process; returns only when it cannot.
    static func handOver(_ arguments: [String], reason: HandOverReason, environment: Environment) -> HandOverFailure {
        if environment[loopGuardVariable] != nil {
            return HandOverFailure("\(reason.subject) was handed over to another copy of this client (\(location(environment))), "
                + "not the official OpenClaw CLI; set \(pathVariable) to the official CLI's path")
        }
        let path: String
        switch locate(environment) {
        case .success(let found): path = found
        case .failure(let failure): return HandOverFailure(failure, reason: reason)
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

    init(_ failure: OfficialCLI.LocateFailure, reason: OfficialCLI.HandOverReason) {
        let what: String
        switch reason {
        case .command(let word): what = "'\(word)' is a command of the official OpenClaw CLI"
        case .container(let name, let fromVariable):
            what = (fromVariable ? "\(OfficialCLI.containerVariable)=\(name)" : "--container \(name)")
                + " runs the command in a container through the official OpenClaw CLI"
        case .embeddedAgent: what = "agent --local runs the turn in the official OpenClaw CLI's embedded runtime"
        }
        switch failure {
        case .notFound:
            isNotFound = true
            message = "\(what), which was not found on PATH; "
                + "install it (npm install -g openclaw) or set \(OfficialCLI.pathVariable) to its path"
        case .unusableVariable(let path, let why):
            message = "\(OfficialCLI.pathVariable)=\(path): \(why); \(what)"
        case .variableIsThisClient(let path):
            message = "\(OfficialCLI.pathVariable)=\(path) is this client, not the official OpenClaw CLI"
        }
    }
}
