/// The parameter schemas of the methods behind the official CLI's scripting verbs (`logs`, `system
/// event`, `cron`), transcribed from the gateway protocol package (logs-chat.ts, agent.ts, cron.ts).
extension GatewaySchemas {
    static let logsTail = ObjectSchema([
        ("cursor", .integer(minimum: 0)), ("limit", .integer(minimum: 1, maximum: 5000)),
        ("maxBytes", .integer(minimum: 1, maximum: 1_000_000)),
    ], required: [])

    /// `WakeParams` is open: wake senders may attach opaque metadata.
    static let wake = ObjectSchema([
        ("mode", .oneOfStrings(["now", "next-heartbeat"])), ("text", .nonEmptyString),
        ("sessionKey", .nonEmptyString), ("agentId", .nonEmptyString),
    ], required: ["mode", "text"], closed: false)

    static let cronList = ObjectSchema([
        ("includeDisabled", .boolean), ("limit", .integer(minimum: 1, maximum: 200)), ("offset", .integer(minimum: 0)),
        ("query", .string()), ("enabled", .oneOfStrings(["all", "enabled", "disabled"])),
        ("scheduleKind", .oneOfStrings(["all", "at", "every", "cron", "on-exit", "stream"])),
        ("lastRunStatus", .oneOfStrings(["all", "ok", "error", "skipped", "unknown"])),
        ("sortBy", .oneOfStrings(["nextRunAtMs", "updatedAtMs", "name"])), ("sortDir", .oneOfStrings(["asc", "desc"])),
        ("agentId", .nonEmptyString), ("compact", .boolean),
    ], required: [])

    /// `CronRunParams`: the job by `id` or by its legacy alias `jobId`.
    static let cronRun: ParamsSchema = {
        let rest: [(String, ParamsSchema)] = [("mode", .oneOfStrings(["due", "force"])), ("expectedProcessInstanceId", .nonEmptyString)]
        return .anyOf([
            .object(ObjectSchema([("id", .nonEmptyString)] + rest, required: ["id"])),
            .object(ObjectSchema([("jobId", .nonEmptyString)] + rest, required: ["jobId"])),
        ])
    }()

    private static let cronRunStatus = ParamsSchema.oneOfStrings(["ok", "error", "skipped"])
    private static let cronDeliveryStatus = ParamsSchema.oneOfStrings(["delivered", "not-delivered", "unknown", "not-requested"])

    /// `CronRunsParams`; the item counts of `statuses` and `deliveryStatuses` and the `id` pattern are
    /// checked by the handler (the schema subset has no `minItems` or `pattern`).
    static let cronRuns = ObjectSchema([
        ("agentId", .nonEmptyString), ("scope", .oneOfStrings(["job", "all"])), ("id", .nonEmptyString),
        ("jobId", .nonEmptyString), ("runId", .nonEmptyString), ("limit", .integer(minimum: 1, maximum: 200)),
        ("offset", .integer(minimum: 0)), ("statuses", .array(of: cronRunStatus)),
        ("status", .oneOfStrings(["all", "ok", "error", "skipped"])), ("deliveryStatuses", .array(of: cronDeliveryStatus)),
        ("deliveryStatus", cronDeliveryStatus), ("query", .string()), ("sortDir", .oneOfStrings(["asc", "desc"])),
    ], required: [])
}
