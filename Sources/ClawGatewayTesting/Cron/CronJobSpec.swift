/// One `--cron-job ID[,ok|error][,SECONDS][,disabled][,due][,agent:ID]`: a job whose runs end `ok` or
/// `error` SECONDS after they start (default ok after 1 s), disabled, due (its next run already past,
/// so `cron.run` mode `due` runs it), owned by an agent other than `main`.
struct CronJobSpec: Sendable, Equatable {
    var id: String
    var succeeds = true
    var seconds = 1.0
    var enabled = true
    var due = false
    var agentId = "main"

    /// Without flags: one job that succeeds, one that fails, one disabled (`make demo`).
    static let defaults = [
        CronJobSpec(id: "daily-digest"),
        CronJobSpec(id: "flaky-export", succeeds: false),
        CronJobSpec(id: "weekly-cleanup", enabled: false),
    ]

    static func parse(_ text: String) throws(UsageError) -> CronJobSpec {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let usage = UsageError("--cron-job: expected ID[,ok|error][,SECONDS][,disabled][,due][,agent:ID], got '\(text)'")
        // The run log refuses ids with path separators (cron.runs `id` pattern), so jobs cannot have them.
        guard let id = parts.first, !id.isEmpty, !id.contains("/"), !id.contains("\\") else { throw usage }
        var spec = CronJobSpec(id: id)
        for part in parts.dropFirst() {
            switch part {
            case "ok": spec.succeeds = true
            case "error": spec.succeeds = false
            case "disabled": spec.enabled = false
            case "due": spec.due = true
            case _ where part.hasPrefix("agent:") && part.count > 6: spec.agentId = String(part.dropFirst(6)).lowercased()
            default:
                guard let seconds = Double(part), seconds >= 0, seconds <= 86_400 else { throw usage }
                spec.seconds = seconds
            }
        }
        return spec
    }
}
