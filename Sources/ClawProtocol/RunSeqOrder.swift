
/// Per-run `payload.seq` bookkeeping for one run's `chat` and `agent` events (docs/protocol.md §5.1, §5.2).
/// The gateway gives a chat event the seq of the agent event that caused it, so the two families share numbers:
/// duplicates are judged per family, gaps over both.
struct RunSeqOrder: Sendable {
    enum Family { case chat, agent }

    private var lastChat: Int64?
    private var lastAgent: Int64?
    private var highest: Int64?

    /// Whether an event with `seq` is new (nil seq: always, in arrival order), and the gap it reveals, if any.
    mutating func admit(_ seq: Int64?, _ family: Family) -> (fresh: Bool, gap: ReplyAssembler.Gap?) {
        guard let seq else { return (true, nil) }
        let last = family == .chat ? lastChat : lastAgent
        if let last, seq <= last { return (false, nil) }
        if family == .chat { lastChat = seq } else { lastAgent = seq }
        // The first numbered event sets the baseline: a watcher may join a run midway.
        var gap: ReplyAssembler.Gap? = nil
        // `highest < .max`: no overflow on a hostile seq.
        if let highest, highest < .max, seq > highest + 1 { gap = ReplyAssembler.Gap(expected: highest + 1, received: seq) }
        highest = max(highest ?? seq, seq)
        return (true, gap)
    }
}
