import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto

/// The state one simulated gateway shares between its connections.
final class Gateway: @unchecked Sendable {
    let options: SimulatorOptions
    let registry: DeviceRegistry
    let history: ChatHistoryStore
    let runs = RunRegistry()
    let agentResults = AgentResultCache()
    let subscriptions = SubscriptionRegistry()
    /// `--write-rate-limit`; nil when off.
    let writeLimiter: WriteRateLimiter?
    let hub: EventHub
    /// Suspension, the restart and 1013 faults, the operator access policy.
    let admission: Admission
    let preauthBudget: PreauthBudget
    /// The file log `logs.tail` reads (in memory).
    let fileLog: GatewayLog
    /// The cron jobs and their runs.
    let cron: CronService
    /// Connects kept open for a pairing decision (`device-pairing-wait`).
    let pairingWaiters = PairingWaiters()
    let startedAtMs: Int64
    let hostName: String
    /// The gateway's own presence entry's `instanceId`, new with every start (as the official gateway's).
    let instanceId = SecureRandom.uuid()

    private let lock = NSLock()
    private var presence: [String: JSONValue] = [:]  // connId -> PresenceEntry
    private var presenceVersion = 1
    private var healthVersion = 1
    private var startingConnectsLeft: Int

    init(options: SimulatorOptions) {
        self.options = options
        registry = DeviceRegistry(preApproved: options.approvedDeviceIds)
        hub = EventHub(protocolVersion: options.protocolVersion, gapEvery: options.seqGapEvery)
        let subscriptions = self.subscriptions
        history = ChatHistoryStore(onAppend: { subscriptions.messageAppended(sessionKey: $0, message: $1, messageSeq: $2) })
        writeLimiter = options.writeRateLimit.map { WriteRateLimiter(limit: $0, windowMs: options.writeRateWindowMs) }
        hostName = ProcessInfo.processInfo.hostName
        startingConnectsLeft = options.startingConnects
        admission = Admission(options: options)
        preauthBudget = PreauthBudget(limit: options.maxUnauthenticated)
        let now = WallClock.milliseconds()
        startedAtMs = now
        fileLog = GatewayLog(options: options, startedAtMs: now)
        cron = CronService(options: options, hub: hub, log: fileLog, now: now)
        if let fixture = options.historyFixture { history.loadFixture(count: fixture.count, bytes: fixture.bytes) }
        for fixture in options.sessionFixtures { history.createEmptySessions(fixture, now: now) }
    }

    /// `--fault starting:N`: true for the first N connects, which the "gateway starting" row answers.
    func takeStartingRejection() -> Bool {
        lock.withLock {
            guard startingConnectsLeft > 0 else { return false }
            startingConnectsLeft -= 1
            return true
        }
    }

    var stateVersion: JSONValue {
        lock.withLock { ["presence": JSONValue(presenceVersion), "health": JSONValue(healthVersion)] }
    }

    /// Tracks a connected client in presence (CLI clients are not tracked, like the real server);
    /// true when presence changed.
    func addPresence(for client: AcceptedClient) -> Bool {
        guard client.clientMode != "cli" else { return false }
        var entry: JSONObject = ["host": .string(client.displayName ?? client.clientId), "version": .string(client.version),
                                 "platform": .string(client.platform)]
        if let family = client.deviceFamily { entry["deviceFamily"] = .string(family) }
        entry["mode"] = .string(client.clientMode)
        if let deviceId = client.deviceId { entry["deviceId"] = .string(deviceId) }
        entry["roles"] = JSONValue([client.role])
        entry["scopes"] = JSONValue(client.scopes)
        if let instance = client.deviceId ?? client.instanceId { entry["instanceId"] = .string(instance) }
        entry["reason"] = "connect"
        entry["ts"] = JSONValue(WallClock.milliseconds())
        entry["text"] = .string("Node: \(client.displayName ?? client.clientId) · mode \(client.clientMode)")
        lock.withLock {
            presence[client.connId] = .object(entry)
            presenceVersion += 1
        }
        return true
    }

    func removePresence(connId: String) -> Bool {
        lock.withLock {
            guard presence.removeValue(forKey: connId) != nil else { return false }
            presenceVersion += 1
            return true
        }
    }

    /// The `presence` event (§5.3): the whole list, with `stateVersion`; not scope-gated.
    func broadcastPresence() {
        hub.broadcast("presence", payload: ["presence": presenceList], stateVersion: stateVersion)
    }

    /// The presence list of the snapshot, the `presence` event and `system-presence`, as the official
    /// `listSystemPresence` (src/infra/system-presence.ts): the gateway's own entry, touched now, and every
    /// tracked client, newest first.
    var presenceList: JSONValue {
        let now = WallClock.milliseconds()
        let selfEntry: JSONValue = [
            "host": .string(hostName), "version": .string(GatewayVocabulary.serverVersion), "platform": "linux",
            "deviceFamily": "Linux", "mode": "gateway", "reason": "self", "instanceId": .string(instanceId),
            "text": .string("Gateway: \(hostName) · app \(GatewayVocabulary.serverVersion) · mode gateway · reason self"),
            "ts": JSONValue(now),
        ]
        let clients = lock.withLock { Array(presence.values) }.sorted { ($0["ts"]?.intValue ?? 0) > ($1["ts"]?.intValue ?? 0) }
        return .array([selfEntry] + clients)
    }

    /// The health snapshot of hello-ok and the `health` method, in the newest closed schema's shape:
    /// every agent row carries a full `heartbeat` and its `sessions`, recent rows carry `age`.
    func healthSummary(durationMs: Int = 0) -> JSONValue {
        let now = WallClock.milliseconds()
        let sessions = history.allSessions()
        let recent: [JSONValue] = sessions.prefix(10).map {
            ["key": .string($0.key), "updatedAt": JSONValue($0.session.updatedAt), "age": JSONValue(max(0, now - $0.session.updatedAt))]
        }
        let summary: JSONValue = ["path": .string(Self.sessionsPath), "count": JSONValue(sessions.count), "recent": .array(recent)]
        let heartbeat: JSONValue = [
            "enabled": false, "every": "30m", "everyMs": JSONValue(30 * 60 * 1000),
            "prompt": "Read HEARTBEAT.md if it exists. If nothing needs attention, reply HEARTBEAT_OK.",
            "target": "last", "ackMaxChars": 300,
        ]
        return [
            "ok": true, "ts": JSONValue(now), "durationMs": JSONValue(durationMs), "channels": [:],
            "channelOrder": [], "channelLabels": [:], "heartbeatSeconds": 0, "defaultAgentId": "main",
            "agents": [["agentId": "main", "isDefault": true, "heartbeat": heartbeat, "sessions": summary]],
            "sessions": summary,
        ]
    }

    static let sessionsPath = "/tmp/openclaw-sim/sessions.json"

    var snapshot: JSONValue {
        [
            "presence": presenceList, "health": healthSummary(), "stateVersion": stateVersion,
            "uptimeMs": JSONValue(WallClock.milliseconds() - startedAtMs),
            "configPath": "/tmp/openclaw-sim/openclaw.json", "stateDir": "/tmp/openclaw-sim",
            "sessionDefaults": ["defaultAgentId": "main", "mainKey": "main", "mainSessionKey": "agent:main:main",
                                "scope": "per-sender"],
            "authMode": .string(options.authMode),
        ]
    }
}
