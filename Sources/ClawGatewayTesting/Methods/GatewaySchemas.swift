/// The closed parameter schemas of the methods the simulator serves, per protocol generation
/// (docs/protocol.md §2, §3.2, §4).
enum GatewaySchemas {
    /// `RequestFrame`: `{type:"req", id, method, params?}` (+ `traceparent?` in v4).
    static func requestFrame(_ version: Int) -> ObjectSchema {
        var properties: [(String, ParamsSchema)] = [
            ("type", .oneOfStrings(["req"])), ("id", .nonEmptyString), ("method", .nonEmptyString), ("params", .any),
        ]
        if version >= 4 { properties.append(("traceparent", .string(maxLength: 128))) }
        return ObjectSchema(properties, required: ["type", "id", "method"])
    }

    static func connectParams(_ version: Int) -> ObjectSchema {
        let client = ObjectSchema([
            ("id", .oneOfStrings(GatewayVocabulary.clientIds(version), caseInsensitive: true)),
            ("displayName", .string()), ("version", .nonEmptyString), ("platform", .nonEmptyString),
            ("deviceFamily", .string()), ("modelIdentifier", .string()),
            ("mode", .oneOfStrings(GatewayVocabulary.clientModes(version))), ("instanceId", .string()),
        ], required: ["id", "version", "platform", "mode"])
        var authProperties: [(String, ParamsSchema)] = [("token", .string()), ("password", .string())]
        if version >= 4 {
            authProperties = [
                ("token", .string()), ("bootstrapToken", .string()), ("deviceToken", .string()), ("password", .string()),
                ("approvalRuntimeToken", .string()), ("agentRuntimeIdentityToken", .string()),
            ]
        } else {
            authProperties.append(("deviceToken", .string()))
        }
        let device = ObjectSchema([
            ("id", .nonEmptyString), ("publicKey", .nonEmptyString), ("signature", .nonEmptyString),
            ("signedAt", .integer(minimum: 0)), ("nonce", .nonEmptyString),
        ], required: version >= 4 ? ["id", "publicKey", "signature", "signedAt", "nonce"] : ["id", "publicKey", "signature", "signedAt"])
        return ObjectSchema([
            ("minProtocol", .integer(minimum: 1)), ("maxProtocol", .integer(minimum: 1)),
            ("client", .object(client)), ("caps", .stringArray), ("commands", .stringArray),
            ("permissions", .map(of: .boolean)), ("pathEnv", .string()), ("role", .string()),
            ("scopes", .stringArray), ("device", .object(device)), ("auth", .object(ObjectSchema(authProperties, required: []))),
            ("locale", .string()), ("userAgent", .string()),
        ], required: ["minProtocol", "maxProtocol", "client"])
    }

    static func chatHistory(_ version: Int) -> ObjectSchema {
        let base = ObjectSchema([("sessionKey", .nonEmptyString), ("limit", .integer(minimum: 1, maximum: 1000))],
                                required: ["sessionKey"])
        guard version >= 4 else { return base }
        return base.adding([
            ("agentId", .string()), ("offset", .integer(minimum: 0)), ("maxBytes", .integer(minimum: 1024)),
            ("messageId", .string()), ("sessionId", .string()), ("maxChars", .integer(minimum: 1, maximum: 500_000)),
        ])
    }

    static func chatSend(_ version: Int) -> ObjectSchema {
        let base = ObjectSchema([
            ("sessionKey", version >= 4 ? .string(minLength: 1, maxLength: 512) : .nonEmptyString),
            ("message", .string()), ("thinking", .string()), ("deliver", .boolean), ("attachments", .array(of: .any)),
            ("timeoutMs", .integer(minimum: 0)), ("idempotencyKey", .nonEmptyString),
        ], required: ["sessionKey", "message", "idempotencyKey"])
        guard version >= 4 else { return base }
        return base.adding([
            ("agentId", .string()), ("sessionId", .string()),
            ("fastMode", .anyOf([.boolean, .oneOfStrings(["auto"])])), ("fastAutoOnSeconds", .integer(minimum: 0)),
            ("queueMode", .oneOfStrings(["steer", "followup", "collect", "interrupt"])),
            ("originatingChannel", .string()), ("originatingTo", .string()), ("originatingAccountId", .string()),
            ("originatingThreadId", .string()), ("replyToId", .string()), ("toolBindings", .any),
            ("systemInputProvenance", .any), ("systemProvenanceReceipt", .any),
            ("suppressCommandInterpretation", .boolean), ("expectedLeafEntryId", .anyOf([.string(), .null])),
            ("expectedSessionRoutingContract", .any),
        ])
    }

    static func chatAbort(_ version: Int) -> ObjectSchema {
        let base = ObjectSchema([("sessionKey", .nonEmptyString), ("runId", .string())], required: ["sessionKey"])
        guard version >= 4 else { return base }
        return base.adding([("agentId", .string()), ("preserveSideRuns", .boolean), ("exemptRunId", .string())])
    }

    static let chatInject = ObjectSchema(
        [("sessionKey", .nonEmptyString), ("message", .nonEmptyString), ("label", .string(maxLength: 100))],
        required: ["sessionKey", "message"])

    /// `sessions.list` (the September 2026 closed schema).
    static let sessionsList = ObjectSchema([
        ("limit", .integer(minimum: 1)), ("offset", .integer(minimum: 0)), ("activeMinutes", .integer(minimum: 1)),
        ("requireLastInteraction", .boolean), ("sortBy", .oneOfStrings(["updatedAt", "lastInteractionAt"])),
        ("includeGlobal", .boolean), ("includeUnknown", .boolean), ("configuredAgentsOnly", .boolean),
        ("includeDerivedTitles", .boolean), ("includeLastMessage", .boolean), ("label", .string(minLength: 1, maxLength: 100)),
        ("creatorId", .nonEmptyString), ("spawnedBy", .nonEmptyString), ("agentId", .nonEmptyString), ("search", .string()),
        ("archived", .anyOf([.boolean, .oneOfStrings(["all"])])),
    ], required: [])

    /// `agent` (§6): the server's closed `AgentParamsSchema` (September 2026); all optional but
    /// `message` and `idempotencyKey`. The official CLI always sends `cleanupBundleMcpOnRunEnd`.
    static let agent = ObjectSchema([
        ("message", .nonEmptyString), ("agentId", .nonEmptyString), ("provider", .string()), ("model", .string()),
        ("to", .string()), ("replyTo", .string()), ("sessionId", .string()), ("sessionKey", .string()),
        ("expectedExistingSessionId", .nonEmptyString), ("thinking", .string()), ("deliver", .boolean),
        ("attachments", .array(of: .any)), ("channel", .string()), ("replyChannel", .string()), ("accountId", .string()),
        ("replyAccountId", .string()), ("threadId", .string()), ("groupId", .string()), ("groupChannel", .string()),
        ("groupSpace", .string()), ("timeout", .integer(minimum: 0)), ("bestEffortDeliver", .boolean), ("lane", .string()),
        ("cwd", .nonEmptyString), ("cleanupBundleMcpOnRunEnd", .boolean), ("modelRun", .boolean),
        ("promptMode", .oneOfStrings(["full", "minimal", "none"])), ("extraSystemPrompt", .string()),
        ("bootstrapContextMode", .oneOfStrings(["full", "lightweight"])),
        ("bootstrapContextRunKind", .oneOfStrings(["default", "heartbeat", "cron"])),
        ("acpTurnSource", .oneOfStrings(["manual_spawn"])), ("internalRuntimeHandoffId", .nonEmptyString),
        ("execApprovalFollowupExpectedSessionId", .nonEmptyString), ("internalEvents", .array(of: .any)),
        ("inputProvenance", .any), ("suppressPromptPersistence", .boolean),
        ("sessionEffects", .oneOfStrings(["visible", "internal"])),
        ("sourceReplyDeliveryMode", .oneOfStrings(["automatic", "message_tool_only"])), ("disableMessageTool", .boolean),
        ("swarmCollector", .boolean), ("swarmOutputSchema", .map(of: .any)), ("forceRestartSafeTools", .boolean),
        ("voiceWakeTrigger", .string()), ("replayOnly", .boolean), ("replayCapability", .nonEmptyString),
        ("idempotencyKey", .nonEmptyString), ("label", .string(minLength: 1, maxLength: 100)), ("spawnedBy", .string()),
    ], required: ["message", "idempotencyKey"])

    static let health = ObjectSchema([("probe", .boolean)], required: [])
    /// `device.pair.approve` and `device.pair.reject`.
    static let devicePairDecision = ObjectSchema([("requestId", .nonEmptyString)], required: ["requestId"])

    /// `sessions.messages.subscribe` (closed: `sessionKey` is not a member; `includeApprovals` only `true`).
    static let sessionsMessagesSubscribe = ObjectSchema(
        [("key", .nonEmptyString), ("agentId", .nonEmptyString), ("includeApprovals", .constant(true))],
        required: ["key"])

    static let sessionsMessagesUnsubscribe = ObjectSchema([("key", .nonEmptyString), ("agentId", .nonEmptyString)],
                                                          required: ["key"])
}
