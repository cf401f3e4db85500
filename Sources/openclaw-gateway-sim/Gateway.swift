import Foundation
import OpenClawKit

/// The state one simulated gateway shares between its connections.
final class Gateway: @unchecked Sendable {
    let options: SimulatorOptions
    let registry: DeviceRegistry
    let history = ChatHistoryStore()
    let runs = RunRegistry()
    let hub: EventHub
    let startedAtMs = WallClock.milliseconds()
    let hostName: String

    private let lock = NSLock()
    private var presence: [String: JSONValue] = [:]  // connId -> PresenceEntry
    private var presenceVersion = 1
    private var healthVersion = 1

    init(options: SimulatorOptions) {
        self.options = options
        registry = DeviceRegistry(preApproved: options.approvedDeviceIds)
        hub = EventHub(protocolVersion: options.protocolVersion)
        hostName = ProcessInfo.processInfo.hostName
        if let fixture = options.historyFixture { history.loadFixture(count: fixture.count, bytes: fixture.bytes) }
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

    var presenceList: JSONValue {
        let selfEntry: JSONValue = ["host": .string(hostName), "version": .string(GatewayVocabulary.serverVersion),
                                    "platform": "linux", "mode": "gateway", "reason": "self",
                                    "ts": JSONValue(startedAtMs)]
        return lock.withLock { .array([selfEntry] + presence.values) }
    }

    func healthSummary(durationMs: Int = 0) -> JSONValue {
        let sessions = history.allSessions()
        let recent: [JSONValue] = sessions.prefix(10).map { ["key": .string($0.key), "updatedAt": JSONValue($0.session.updatedAt)] }
        return [
            "ok": true, "ts": JSONValue(WallClock.milliseconds()), "durationMs": JSONValue(durationMs), "channels": [:],
            "channelOrder": [], "channelLabels": [:], "heartbeatSeconds": 0, "defaultAgentId": "main",
            "agents": [["agentId": "main", "isDefault": true, "heartbeat": ["enabled": false]]],
            "sessions": ["path": "/tmp/openclaw-sim/sessions.json", "count": JSONValue(sessions.count), "recent": .array(recent)],
        ]
    }

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
