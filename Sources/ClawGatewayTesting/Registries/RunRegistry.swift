import Foundation
@_spi(Engine) import ClawSystem

/// One agent run in progress; its lock orders the run's own events against an abort.
final class ActiveRun: @unchecked Sendable {
    let runId: String
    let sessionKey: String
    /// Wall-clock start (`sessions.changed` startedAt and runtimeMs).
    let startedAt = WallClock.milliseconds()
    let lock = NSLock()
    /// Guarded by `lock`.
    var seq = 0
    var text = ""
    var finished = false
    /// Start order, so abort answers list runIds in a stable order.
    var order = 0
    /// Called once when the run ends, with how it ended and the reply text (the `agent` method's
    /// second `res`). Set before the run starts.
    var onFinish: (@Sendable (_ ending: RunEnding, _ text: String) -> Void)? = nil

    init(runId: String, sessionKey: String) {
        self.runId = runId
        self.sessionKey = sessionKey
    }
}

/// How a run ended, as the `agent` method's final response reports it.
enum RunEnding: Sendable, Equatable {
    case completed
    case failed(message: String)
    /// `chat.abort` (`rpc`), a stop command (`stop`) or the `agent` timeout (`timeout`).
    case aborted(stopReason: String)
}

/// Active runs and the `chat.send` idempotency cache (runId = idempotencyKey, §4.2).
final class RunRegistry: @unchecked Sendable {
    enum Outcome: Sendable { case ok, error(summary: String) }
    enum Lookup { case inFlight, done(Outcome), unknown }

    private let lock = NSLock()
    private var active: [String: ActiveRun] = [:]
    private var completed: [String: Outcome] = [:]
    private var completedOrder: [String] = []
    private var started = 0
    static let cacheLimit = 1000

    func lookup(_ key: String) -> Lookup {
        lock.withLock {
            if active[key] != nil { return .inFlight }
            if let outcome = completed[key] { return .done(outcome) }
            return .unknown
        }
    }

    /// Registers a new run unless one with this key is running or cached (then returns `nil`).
    func start(runId: String, sessionKey: String) -> ActiveRun? {
        lock.withLock {
            guard active[runId] == nil, completed[runId] == nil else { return nil }
            let run = ActiveRun(runId: runId, sessionKey: sessionKey)
            started += 1
            run.order = started
            active[runId] = run
            return run
        }
    }

    func finish(_ run: ActiveRun, outcome: Outcome) {
        lock.withLock {
            active[run.runId] = nil
            if completed[run.runId] == nil { completedOrder.append(run.runId) }
            completed[run.runId] = outcome
            if completedOrder.count > Self.cacheLimit {
                completed[completedOrder.removeFirst()] = nil
            }
        }
    }

    func run(_ runId: String) -> ActiveRun? { lock.withLock { active[runId] } }

    /// The gateway stopped: every active run ends at its next step, unannounced (nobody is connected).
    func stopAll() {
        let runs = lock.withLock { Array(active.values) }
        for run in runs { run.lock.withLock { run.finished = true } }
    }

    /// Active runs started with exactly this session key (the real server compares raw keys, so
    /// `main` and `agent:main:main` are different here), oldest first.
    func runs(inSession sessionKey: String) -> [ActiveRun] {
        lock.withLock { active.values.filter { $0.sessionKey == sessionKey }.sorted { $0.order < $1.order } }
    }
}
