@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// `{source:"exec", command, args?, timeoutMs?, noOutputTimeoutMs?, maxOutputBytes?, jsonOnly?, env?,
/// passEnv?, trustedDirs?}`: a secret from a program the user owns. As the official resolver:
/// - the command is an absolute path (after `~`), a regular file and not a symbolic link, inside one
///   of `trustedDirs` when they are given, not writable by group or others, owned by the user;
/// - it runs without a shell, in its own directory, with an environment of only the `passEnv`
///   variables copied from ours plus `env`, and reads one JSON line on stdin:
///   `{"protocolVersion":1,"provider":ALIAS,"ids":[ID]}`;
/// - it must exit 0 within `timeoutMs` (default 5000), never stay silent for `noOutputTimeoutMs`
///   (default: `timeoutMs`), and write at most `maxOutputBytes` (default 1 MiB, stdout and stderr together);
/// - with `jsonOnly` (the default) stdout is `{"protocolVersion":1,"values":{ID:VALUE},"errors"?:{…}}`;
///   without it, stdout that is not JSON, or is a JSON string, is the value itself.
/// A command that overstays or overflows is stopped (SIGTERM, then SIGKILL, its process group too) and reaped.
struct ExecSecretProvider: Sendable, Equatable {
    static let defaultTimeoutMs = 5000
    static let defaultMaxOutputBytes = 1 << 20
    /// Error codes a provider may report that the official CLI shows to users.
    static let shownErrorCodes: Set<String> = ["NOT_FOUND", "AMBIGUOUS_DUPLICATE_KEY"]

    /// Home-expanded.
    let command: String
    let arguments: [String]
    let timeoutMs: Int
    let noOutputTimeoutMs: Int
    let maxOutputBytes: Int
    let jsonOnly: Bool
    let environmentEntries: [Entry]
    let passEnvironment: [String]
    /// Home-expanded, normalised.
    let trustedDirectories: [String]

    struct Entry: Sendable, Equatable {
        let name: String
        let value: String
    }

    init(_ fields: ProviderFields, environment: Environment) throws(SecretResolutionError) {
        let name = fields.name
        try fields.allow(["source", "command", "args", "timeoutMs", "noOutputTimeoutMs", "maxOutputBytes", "jsonOnly",
                          "env", "passEnv", "trustedDirs"])
        guard let command = try fields.string("command").flatMap(TextTrim.nonEmpty) else {
            throw .problem(.providerInvalid("\(name).command must be the absolute path of a program"))
        }
        self.command = Self.expandHome(command, environment: environment)
        arguments = try fields.strings("args", maxCount: 128, maxLength: 1024) ?? []
        timeoutMs = try fields.integer("timeoutMs", in: 1...120_000) ?? Self.defaultTimeoutMs
        noOutputTimeoutMs = try fields.integer("noOutputTimeoutMs", in: 1...120_000) ?? timeoutMs
        maxOutputBytes = try fields.integer("maxOutputBytes", in: 1...(20 << 20)) ?? Self.defaultMaxOutputBytes
        jsonOnly = try fields.bool("jsonOnly") ?? true
        environmentEntries = (try fields.stringMap("env") ?? []).map { Entry(name: $0.0, value: $0.1) }
        let passEnvironment = try fields.strings("passEnv", maxCount: 128) ?? []
        if let bad = passEnvironment.first(where: { !ConfigText.isEnvironmentName($0, anyCase: true) }) {
            throw .problem(.providerInvalid("\(name).passEnv must list environment variable names (\"\(bad)\" is not one)"))
        }
        self.passEnvironment = passEnvironment
        var trusted: [String] = []
        for directory in try fields.strings("trustedDirs", maxCount: 64) ?? [] {
            let expanded = Self.expandHome(TextTrim.trimmed(directory), environment: environment)
            guard expanded.hasPrefix("/") else {
                throw .problem(.providerInvalid("\(name).trustedDirs must list absolute directories"))
            }
            trusted.append(Paths.resolve(expanded, currentDirectory: "/"))
        }
        trustedDirectories = trusted
    }

    /// `~` and `~/…` become the OpenClaw home; anything else is left as written (relative stays relative).
    static func expandHome(_ path: String, environment: Environment) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return StatePaths.expandUser(path, environment: environment)
    }

    func value(for id: String, alias: String, environment: Environment,
               interruptDescriptor: Int32?) throws(SecretResolutionError) -> String {
        try checkCommand()
        var childEnvironment: [String: String] = [:]
        for name in passEnvironment { if let value = environment[name] { childEnvironment[name] = value } }
        for entry in environmentEntries { childEnvironment[entry.name] = entry.value }
        var configuration = Subprocess.Configuration(
            executable: command, arguments: arguments, environment: childEnvironment,
            workingDirectory: Paths.parent(command))
        configuration.standardInput = .pipe
        configuration.standardOutput = .pipe
        configuration.standardError = .pipe
        let request: JSONValue = ["protocolVersion": 1, "provider": .string(alias), "ids": [.string(id)]]
        var input: [UInt8] = []
        request.write(to: &input)
        input.append(UInt8(ascii: "\n"))

        let child: Subprocess
        do { child = try Subprocess.spawn(configuration) } catch {
            switch error {
            case .spawnFailed(let reason): throw .problem(.commandFailedToStart(path: command, reason: reason.description))
            case .io(let reason): throw .problem(.commandIO(reason.description))
            }
        }
        let limits = Subprocess.ExchangeLimits(
            deadline: .after(seconds: Double(timeoutMs) / 1000), idleTimeout: Double(noOutputTimeoutMs) / 1000,
            maxOutputBytes: maxOutputBytes, interruptDescriptor: interruptDescriptor)
        let result: Subprocess.Exchanged
        do { result = try child.exchange(input: input, limits: limits) } catch {
            switch error {
            case .timedOut: throw .problem(.timedOut(milliseconds: timeoutMs))
            case .idleTimedOut: throw .problem(.noOutputTimedOut(milliseconds: noOutputTimeoutMs))
            case .outputLimitExceeded: throw .problem(.outputTooLarge(limit: maxOutputBytes))
            case .interrupted: throw .interrupted
            case .io(let reason): throw .problem(.commandIO(reason.description))
            }
        }
        switch result.termination {
        case .exited(0): break
        case .exited(let code): throw .problem(.exited(code: code))
        case .signalled(let signal): throw .problem(.killedBySignal(signal))
        }
        let output = TextTrim.trimmed(String(decoding: result.standardOutput, as: UTF8.self))
        guard !output.isEmpty else { throw .problem(.emptyOutput) }
        return try Self.value(for: id, in: output, jsonOnly: jsonOnly)
    }

    /// The value for `id` in the command's trimmed stdout.
    static func value(for id: String, in output: String, jsonOnly: Bool) throws(SecretResolutionError) -> String {
        let parsed = try? JSONValue.parse(output)
        if !jsonOnly {
            guard let parsed else { return output }
            if let text = parsed.stringValue { return text }
        }
        guard let parsed else { throw .problem(.invalidResponse("stdout is not JSON")) }
        guard let reply = parsed.objectValue else { throw .problem(.invalidResponse("stdout is not a JSON object")) }
        guard reply["protocolVersion"]?.intValue == 1 else {
            throw .problem(.invalidResponse("protocolVersion is not 1"))
        }
        if let errors = reply["errors"], !errors.isNull {
            guard let errors = errors.objectValue else { throw .problem(.invalidResponse("errors is not an object")) }
            if let entry = errors[id] {
                let code = entry["code"]?.stringValue
                throw .problem(.providerError(code: code.flatMap { shownErrorCodes.contains($0) ? $0 : nil }))
            }
        }
        guard let values = reply["values"]?.objectValue else { throw .problem(.invalidResponse("values is not an object")) }
        guard let value = values[id] else { throw .problem(.idMissingFromResponse) }
        guard let text = value.stringValue else { throw .problem(.valueNotAString) }
        return text
    }

    /// The official `assertSecureExecCommandPath`, in its order.
    func checkCommand() throws(SecretResolutionError) {
        guard command.hasPrefix("/") else { throw .problem(.commandNotAbsolute(command)) }
        let status: FileStatus
        do { status = try FileSystem.linkStatus(command) } catch {
            throw .problem(.commandUnusable(path: command, reason: error.reason))
        }
        if status.kind == .symbolicLink { throw .problem(.commandIsSymbolicLink(path: command)) }
        guard status.kind == .regular else { throw .problem(.commandNotRegular(path: command)) }
        if !trustedDirectories.isEmpty {
            let normalized = Paths.resolve(command, currentDirectory: "/")
            let inside = trustedDirectories.contains { directory in
                directory == "/" || normalized.hasPrefix(directory + "/")
            }
            guard inside else { throw .problem(.commandOutsideTrustedDirectories(path: command)) }
        }
        guard !status.isGroupOrOtherWritable else {
            throw .problem(.commandWritableByOthers(path: command, permissions: status.permissions))
        }
        let user = FileSystem.currentUserID()
        guard status.ownerID == user else { throw .problem(.commandNotOwned(path: command, owner: status.ownerID, user: user)) }
    }
}
