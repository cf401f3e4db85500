import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawSession

/// Lives as tables: each event the driver would tell the machine (`handle(_:)`), and the decision it
/// brings, replayed in order. A life logged by a driver reads the same way.
@Suite struct ConnectionLifeTableTests {
    static let second: UInt64 = 1_000_000_000

    /// A decision as the table writes it.
    static func said(_ decision: ConnectionLife.Decision, now: UInt64) -> String {
        switch decision {
        case .carryOn: return "carry on"
        case .ping: return "ping"
        case .closeSilentLink(let error): return "close silent link: \(error)"
        case .retry(let at, let seconds, let why):
            #expect(at == now + UInt64(seconds * 1e9), "retry at now + seconds")
            return "retry after \(seconds) s: \(why)"
        case .end(.gaveUp(_, let retries)): return "end: gave up after \(retries) retries"
        case .end(.failed(let error)): return "end: failed: \(error)"
        case .end(.outOfTime): return "end: out of time"
        case .end(.stillUnpaired(let requestId)): return "end: still unpaired \(requestId ?? "-")"
        case .end(.interrupted): return "end: interrupted"
        case .end(.closed): return "end: closed"
        }
    }

    static func replay(_ life: inout ConnectionLife, _ table: [(ConnectionLife.Event, String)],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, (event, expected)) in table.enumerated() {
            let now: UInt64
            switch event {
            case .connectFailed(_, let at), .lost(_, let at), .connected(_, let at), .linkCheck(let at, _): now = at
            default: now = 0
            }
            #expect(said(life.handle(event), now: now) == expected, "row \(index + 1): \(event)", sourceLocation: sourceLocation)
        }
    }

    @Test func aLongLivedClientReconnectsBacksOffAndGivesUp() {
        var rules = ConnectionLife.Rules()
        rules.reconnect(base: 1, maximum: 4, maxRetries: 2)
        var life = ConnectionLife(rules, random: { 0.5 })
        let s = Self.second
        let refused = GatewayError.cannotConnect("connection refused")
        Self.replay(&life, [
            (.connecting, "carry on"),
            (.connected(tickIntervalMs: 30_000, now: 0), "carry on"),
            (.heard, "carry on"),
            // Healthy (a frame after hello-ok): the backoff starts from its base, 1 s and an eighth.
            (.lost(.connectionLost("dropped", closeCode: 1006), now: 5 * s), "retry after 1.125 s: reconnect(afterFailedConnect: false)"),
            (.connecting, "carry on"),
            (.connectFailed(refused, now: 7 * s), "retry after 1.125 s: reconnect(afterFailedConnect: true)"),
            (.connecting, "carry on"),
            (.connectFailed(refused, now: 9 * s), "retry after 2.25 s: reconnect(afterFailedConnect: true)"),
            (.connecting, "carry on"),
            (.connectFailed(refused, now: 12 * s), "end: gave up after 2 retries"),
        ])
        #expect(life.state == .ended)
    }

    @Test func anAnnouncedRestartIsWaitedOnceThenTheBackoffAgain() {
        var rules = ConnectionLife.Rules()
        rules.reconnect(base: 1, maximum: 30, maxRetries: nil)
        var life = ConnectionLife(rules, random: { 0 })
        let s = Self.second
        Self.replay(&life, [
            (.connecting, "carry on"),
            (.connected(tickIntervalMs: 30_000, now: 0), "carry on"),
            (.restartAnnounced(seconds: 7), "carry on"),
            (.lost(.connectionLost("service restart", closeCode: 1012), now: 1 * s), "retry after 7.0 s: reconnect(afterFailedConnect: false)"),
            (.connecting, "carry on"),
            // Up 1 s with nothing heard was not healthy: this is the second failure in a row, 2 s.
            (.connectFailed(.cannotConnect("refused"), now: 8 * s), "retry after 2.0 s: reconnect(afterFailedConnect: true)"),
            (.interrupted, "end: interrupted"),
        ])
    }

    @Test func aOneShotCommandWaitsOutAnUnavailableGatewayWithinItsDeadline() {
        var rules = ConnectionLife.Rules()
        let s = Self.second
        rules.deadline = 10 * s
        var life = ConnectionLife(rules, random: { 0.5 })
        let restarting = GatewayError.unavailable("gateway restarting", retryAfterMs: 4000)
        Self.replay(&life, [
            (.connecting, "carry on"),
            (.connectFailed(restarting, now: 1 * s), "retry after 4.0 s: unavailable(reason: \"gateway restarting\")"),
            (.connecting, "carry on"),
            // The next wait would end at 10 s: not before the deadline.
            (.connectFailed(restarting, now: 6 * s), "end: failed: \(restarting)"),
        ])
    }

    @Test func theFaceClosingEndsTheLife() {
        var life = ConnectionLife(ConnectionLife.Rules())
        Self.replay(&life, [
            (.connecting, "carry on"),
            (.connected(tickIntervalMs: 30_000, now: 0), "carry on"),
            (.closed, "end: closed"),
        ])
        #expect(life.state == .ended)
    }

    /// The open link's rule, as the driver's waits ask it: a ping every 15 s, the link lost after two
    /// silent ticks, and a frame heard starting the silence again.
    @Test func theOpenLinkIsPingedAndASilentOneIsClosed() {
        var life = ConnectionLife(ConnectionLife.Rules())
        let s = Self.second
        let silence = GatewayError.connectionLost("no frame from the gateway for 60 s (2 × tickIntervalMs)", closeCode: 4000)
        Self.replay(&life, [
            (.connecting, "carry on"),
            (.connected(tickIntervalMs: 30_000, now: 0), "carry on"),
            (.linkCheck(now: 14 * s, heard: false), "carry on"),
            (.linkCheck(now: 15 * s, heard: false), "ping"),
            (.linkCheck(now: 29 * s, heard: true), "carry on"),  // the silence starts again at 29 s
            (.linkCheck(now: 60 * s, heard: false), "ping"),
            (.linkCheck(now: 88 * s, heard: false), "ping"),  // the one due at 75 s
            (.linkCheck(now: 89 * s, heard: false), "close silent link: \(silence)"),
            (.lost(silence, now: 89 * s), "end: failed: \(silence)"),
        ])
        #expect(life.nextDeadline == .max)
    }

    @Test func theNextDeadlineIsTheMachinesOneTimer() {
        var life = ConnectionLife(ConnectionLife.Rules())
        let s = Self.second
        #expect(life.nextDeadline == .max)
        _ = life.handle(.connecting)
        _ = life.handle(.connected(tickIntervalMs: 10_000, now: 0))
        #expect(life.nextDeadline == 15 * s, "the first ping (the silence limit is 20 s)")
        _ = life.handle(.linkCheck(now: 15 * s, heard: false))
        #expect(life.nextDeadline == 20 * s, "the silence limit, before the next ping at 30 s")
    }
}
