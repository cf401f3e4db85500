enum CronCommand {
    /// `automations` is the official CLI's primary name since 2026.8; `cron` its alias.
    static let names = ["cron", "automations"]
    static func run(_ context: CommandContext) throws {
        throw CommandFailure(.usage, "not yet")
    }
}
