@_spi(Engine) import ClawProtocol

/// The closed vocabularies of the protocol (docs/protocol.md §3.2, §6) for each generation.
enum GatewayVocabulary {
    static let maxPayload = 26_214_400
    static let maxBufferedBytes = 52_428_800
    /// v4 caps frames before `connect` succeeds (`MAX_PREAUTH_PAYLOAD_BYTES`).
    static let maxPreauthPayload = 64 * 1024
    static let serverVersion = "2026.8.20-sim"

    static let clientIdsV3: Set<String> = [
        "webchat-ui", "openclaw-control-ui", "webchat", "cli", "gateway-client", "openclaw-macos", "openclaw-ios",
        "openclaw-android", "node-host", "test", "fingerprint", "openclaw-probe",
        "clawdbot-control-ui", "clawdbot-macos", "clawdbot-ios", "clawdbot-android", "clawdbot-probe",
        "moltbot-control-ui", "moltbot-macos", "moltbot-ios", "moltbot-android", "moltbot-probe",
    ]
    static let clientIdsV4: Set<String> = [
        "webchat-ui", "openclaw-control-ui", "openclaw-tui", "webchat", "cli", "gateway-client", "openclaw-macos",
        "openclaw-ios", "openclaw-watchos", "openclaw-android", "node-host", "openclaw-worker", "test",
        "fingerprint", "openclaw-probe",
    ]
    static let clientModesV3: Set<String> = ["webchat", "cli", "ui", "backend", "node", "probe", "test"]
    static let clientModesV4: Set<String> = clientModesV3.union(["worker"])

    static func clientIds(_ version: Int) -> Set<String> { version == 3 ? clientIdsV3 : clientIdsV4 }
    static func clientModes(_ version: Int) -> Set<String> { version == 3 ? clientModesV3 : clientModesV4 }

    static let roles: Set<String> = ["operator", "node"]

    static let read = "operator.read"
    static let write = "operator.write"
    static let admin = "operator.admin"

    /// Methods the simulator implements, in `features.methods` order; v4 adds the subscriptions.
    static func methods(_ version: Int) -> [String] {
        let base = [
            GatewayMethod.health, GatewayMethod.chatHistory, GatewayMethod.chatSend, GatewayMethod.chatAbort,
            GatewayMethod.chatInject, GatewayMethod.sessionsList, GatewayMethod.agent, GatewayMethod.systemPresence,
            GatewayMethod.devicePairApprove, GatewayMethod.devicePairReject, GatewayMethod.logsTail, GatewayMethod.wake,
            GatewayMethod.cronList, GatewayMethod.cronRun, GatewayMethod.cronRuns,
        ]
        return version >= 4 ? base + subscriptionMethods : base
    }

    static let subscriptionMethods = [
        GatewayMethod.sessionsSubscribe, GatewayMethod.sessionsUnsubscribe, GatewayMethod.sessionsMessagesSubscribe,
        GatewayMethod.sessionsMessagesUnsubscribe,
    ]

    /// `features.events` in the official order; v4 adds the targeted session events after `chat`.
    static func events(_ version: Int) -> [String] {
        let session = version >= 4 ? [GatewayEventName.sessionMessage, GatewayEventName.sessionsChanged] : []
        return ["connect.challenge", "agent", "chat"] + session + [
            "presence", "tick", "talk.mode", "shutdown", "health", "heartbeat",
            "cron", "node.pair.requested", "node.pair.resolved", "node.invoke.request", "device.pair.requested",
            "device.pair.resolved", "voicewake.changed", "exec.approval.requested", "exec.approval.resolved",
        ]
    }

    private static let readMethods: Set<String> = [
        "health", "logs.tail", "channels.status", "status", "tts.status", "tts.providers", "models.list",
        "agents.list", "agent.identity.get", "skills.status", "voicewake.get", "sessions.list", "sessions.preview",
        "sessions.resolve", "sessions.usage", "cron.list", "cron.status", "cron.runs", "system-presence",
        "last-heartbeat", "node.list", "node.describe", "chat.history", "config.get", "talk.config",
        "agents.files.list", "agents.files.get",
    ]
    private static let writeMethods: Set<String> = [
        "send", "poll", "agent", "agent.wait", "wake", "talk.mode", "voicewake.set", "node.invoke", "chat.send",
        "chat.abort", "browser.request", "push.test",
    ]
    private static let pairingMethods: Set<String> = [
        "device.pair.list", "device.pair.approve", "device.pair.reject", "device.pair.remove",
        "device.token.rotate", "device.token.revoke",
    ]

    /// The scope a method needs (v3 table, §6, plus the v4 subscriptions); anything unclassified needs admin.
    static func requiredScope(for method: String, version: Int = 4) -> String {
        if readMethods.contains(method) || method.hasPrefix("usage.") || method.hasPrefix("sessions.usage") { return read }
        if version >= 4 && subscriptionMethods.contains(method) { return read }
        if writeMethods.contains(method) || method.hasPrefix("tts.") { return write }
        if pairingMethods.contains(method) { return "operator.pairing" }
        if method == "exec.approval.resolve" { return "operator.approvals" }
        return admin
    }

    /// Whether `granted` satisfies `required`: admin implies everything, write implies read.
    static func scopes(_ granted: [String], satisfy required: String) -> Bool {
        if granted.contains(admin) || granted.contains(required) { return true }
        return required == read && granted.contains(write)
    }
}
