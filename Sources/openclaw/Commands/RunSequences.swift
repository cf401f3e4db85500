@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawJSON

/// Per-run `seq` tracking for `watch`: one `SequenceTracker` per run that has not ended, bounded so
/// that runs which never end visibly cannot grow it over days. The run of the last event is kept
/// apart and matched on the frame's bytes, so a stream of one run's events hashes no id.
struct RunSequences {
    /// Bounds memory over days of runs that never end visibly.
    static let maxTrackedRuns = 4096

    private var others: [String: SequenceTracker] = [:]
    private var currentID: String? = nil  // never also in `others`
    private var currentUTF8: [UInt8] = []
    private var current = SequenceTracker()

    /// Records a run event's per-run seq; returns the expected seq and the run when it skipped ahead.
    mutating func record(_ frame: GatewayFrame) -> (expected: Int64, runID: String)? {
        guard frame.isRunEvent, let runSeq = frame.fields.runSeq, runSeq > 0, let runID = select(frame) else { return nil }
        return current.record(runSeq).map { ($0, runID) }
    }

    /// Forgets a run that ended.
    mutating func end(_ frame: GatewayFrame) {
        guard frame.fields.runId != nil else { return }
        if currentID != nil && frame.runId(is: currentUTF8) { currentID = nil }
        else if let runID = frame.runId { others[runID] = nil }
    }

    /// Makes the frame's run the current one; returns its id.
    private mutating func select(_ frame: GatewayFrame) -> String? {
        if let currentID, frame.runId(is: currentUTF8) { return currentID }
        guard let runID = frame.runId else { return nil }
        if let previous = currentID { others[previous] = current }
        if others.count >= Self.maxTrackedRuns && others[runID] == nil { others.removeAll() }
        current = others.removeValue(forKey: runID) ?? SequenceTracker()
        currentID = runID
        currentUTF8 = Array(runID.utf8)
        return runID
    }
}
