import Glibc
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawSession

/// The engine's rules in virtual time: every clock is a number, every jitter a chosen draw, so each
/// rule runs in microseconds and a failure names the rule, not a slow machine.
private let second: UInt64 = 1_000_000_000
private func at(_ seconds: Double) -> UInt64 { UInt64(seconds * 1e9) }

private let refused = GatewayError.connectFailed(url: "ws://127.0.0.1:1", origin: nil,
                                                 reason: .connect(host: "127.0.0.1", port: 1, error: SystemError(code: ECONNREFUSED)))
private let dropped = GatewayError.connectionLost("the gateway closed the connection (1006)", closeCode: 1006)

/// One-shot rules bounded by a deadline 30 s into virtual time.
private func oneShot(_ change: (inout ConnectionLife.Rules) -> Void = { _ in }) -> ConnectionLife.Rules {
    var rules = ConnectionLife.Rules()
    rules.deadline = at(30)
    change(&rules)
    return rules
}

/// Long-lived rules: reconnect, backoff 1 s doubling to 30 s.
private func longLived(maxRetries: Int? = nil) -> ConnectionLife.Rules {
    var rules = ConnectionLife.Rules()
    rules.reconnects = true
    rules.schedule = ReconnectSchedule(backoff: Backoff(base: 1, maximum: 30), maxRetries: maxRetries)
    return rules
}

/// The delay a decision waits, or nil when it ends the life.
private func delay(_ decision: ConnectionLife.Decision) -> Double? {
    if case .retry(_, let seconds, _) = decision { return seconds }
    return nil
}

@Suite struct KeepAliveTests {
    @Test func aPingGoesOutEvery15Seconds() {
        var keepAlive = KeepAlive(tickIntervalMs: 30_000, now: 0)
        #expect(keepAlive.due(now: at(14.9)) == .nothing)
        #expect(keepAlive.due(now: at(15)) == .ping)
        #expect(keepAlive.due(now: at(15.1)) == .nothing, "a ping reported due counts as sent")
        keepAlive.heardFromGateway(now: at(20))
        #expect(keepAlive.due(now: at(30)) == .ping)
    }

    @Test func twoSilentTicksLoseTheLink() {
        var keepAlive = KeepAlive(tickIntervalMs: 30_000, now: 0)
        #expect(keepAlive.silenceLimit == 60)
        _ = keepAlive.due(now: at(59.9))
        #expect(keepAlive.due(now: at(59.95)) != .silence)
        #expect(keepAlive.due(now: at(60)) == .silence)
        guard case .connectionLost(_, 4000) = keepAlive.silenceError else { Issue.record("\(keepAlive.silenceError)"); return }
    }

    @Test func aFrameStartsTheSilenceAgain() {
        var keepAlive = KeepAlive(tickIntervalMs: 1_000, pingInterval: 100, now: 0)
        keepAlive.heardFromGateway(now: at(1.5))
        #expect(keepAlive.due(now: at(3)) == .nothing)
        #expect(keepAlive.due(now: at(3.5)) == .silence)
    }

    @Test func theNextCheckIsTheEarlierOfPingAndWatchdog() {
        let fast = KeepAlive(tickIntervalMs: 30_000, pingInterval: 15, now: at(100))
        #expect(fast.nextCheck == at(115))
        let slowPing = KeepAlive(tickIntervalMs: 2_000, pingInterval: 15, now: at(100))
        #expect(slowPing.nextCheck == at(104))
    }
}

@Suite struct BackoffTests {
    @Test func theDelayDoublesFromOneSecondToThirtyWithinTheJitterBounds() {
        let backoff = Backoff(base: 1, maximum: 30)
        let ceilings = (1...8).map { backoff.ceiling(attempt: $0) }
        #expect(ceilings == [1, 2, 4, 8, 16, 30, 30, 30])
        for attempt in 1...8 {
            let ceiling = backoff.ceiling(attempt: attempt)
            #expect(backoff.delay(attempt: attempt, random: 0) == ceiling, "jitter never shortens a delay")
            #expect(backoff.delay(attempt: attempt, random: 1) == min(30, ceiling * 1.25))
        }
    }
}

@Suite struct ConnectionLifeTests {
    @Test func aHealthyConnectionResetsTheBackoff() {
        var life = ConnectionLife(longLived(), random: { 0 })
        life.connecting()
        #expect(delay(life.connectFailed(dropped, now: 0)) == 1)
        life.connecting()
        #expect(delay(life.connectFailed(dropped, now: at(1))) == 2)
        life.connecting()
        life.connected(tickIntervalMs: 30_000, now: at(3))
        // Up 30 s (two ticks, at most 30 s): healthy, so the next wait is the base again.
        #expect(delay(life.lost(dropped, now: at(33))) == 1)
        #expect(life.failures == 0)
    }

    @Test func aConnectionLostBeforeItWasHealthyCountsAsAFailure() {
        var life = ConnectionLife(longLived(), random: { 0 })
        life.connecting()
        life.connected(tickIntervalMs: 30_000, now: 0)
        #expect(delay(life.lost(dropped, now: at(5))) == 1)
        life.connecting()
        life.connected(tickIntervalMs: 30_000, now: at(6))
        #expect(delay(life.lost(dropped, now: at(7))) == 2, "accept-and-drop meets a growing delay")
        life.connecting()
        life.connected(tickIntervalMs: 30_000, now: at(9))
        life.heard()  // the answer to a subscription: healthy at once
        #expect(delay(life.lost(dropped, now: at(9.1))) == 1)
    }

    @Test func theJitterComesFromTheInjectedSource() {
        var life = ConnectionLife(longLived(), random: { 1 })
        life.connecting()
        #expect(delay(life.connectFailed(dropped, now: 0)) == 1.25)
        life.connecting()
        #expect(delay(life.connectFailed(dropped, now: 0)) == 2.5)
    }

    @Test func maxRetriesFailedAttemptsInARowGiveUp() {
        var life = ConnectionLife(longLived(maxRetries: 2), random: { 0 })
        for _ in 1...2 {
            life.connecting()
            #expect(delay(life.connectFailed(dropped, now: 0)) != nil)
        }
        life.connecting()
        guard case .end(.gaveUp(_, let retries)) = life.connectFailed(dropped, now: 0) else { Issue.record("did not give up"); return }
        #expect(retries == 2)
        #expect(life.state == .ended)
    }

    @Test func aShutdownsRestartExpectedMsIsTheNextWait() {
        var life = ConnectionLife(longLived(), random: { 0.5 })
        life.connecting()
        life.connected(tickIntervalMs: 30_000, now: 0)
        life.restartAnnounced(seconds: 7.5)
        let decision = life.lost(dropped, now: at(2))
        #expect(delay(decision) == 7.5)
        #expect(life.nextDeadline == at(9.5))
        // Used once: the next loss goes back to the backoff.
        life.connecting()
        life.connected(tickIntervalMs: 30_000, now: at(10))
        #expect(delay(life.lost(dropped, now: at(11))) != 7.5)
    }

    @Test func aRetryAfterMsIsWaitedExactlyWithinTheDeadline() {
        var life = ConnectionLife(oneShot(), random: { 1 })
        let suspended = GatewayError.unavailable("gateway suspended", retryAfterMs: 2500)
        guard case .retry(let until, let seconds, .unavailable(let reason)) = life.connectFailed(suspended, now: at(1)) else {
            Issue.record("not waited out"); return
        }
        #expect(seconds == 2.5 && until == at(3.5) && reason == "gateway suspended")
        #expect(life.state == .waiting(until: at(3.5)))
        // Past the deadline: the refusal ends the command.
        guard case .end(.failed) = life.connectFailed(suspended, now: at(28)) else { Issue.record("waited past the deadline"); return }
    }

    @Test func aConnectClosed1013IsWaitedOutAsTheGatewaySays() {
        // The handshake reads close 1013 as UNAVAILABLE with 1 s (Handshake.swift).
        var life = ConnectionLife(oneShot(), random: { 0 })
        let closed1013 = GatewayError.unavailable("the gateway closed the connection (1013) during the handshake", retryAfterMs: 1000)
        #expect(delay(life.connectFailed(closed1013, now: 0)) == 1)
    }

    @Test func anUnavailableWithoutADelayOrWithoutWaitsEndsTheCommand() {
        var life = ConnectionLife(oneShot(), random: { 0 })
        guard case .end(.failed) = life.connectFailed(.unavailable("down", retryAfterMs: nil), now: 0) else { Issue.record("waited"); return }
        var watchLike = ConnectionLife(oneShot { $0.waitsOutUnavailable = false }, random: { 0 })
        guard case .end(.failed) = watchLike.connectFailed(.unavailable("down", retryAfterMs: 500), now: 0) else { Issue.record("waited"); return }
    }

    @Test func aRefusedConnectEndsUnlessRetryConnrefusedThenWaitsLonger() {
        var plain = ConnectionLife(oneShot(), random: { 0 })
        guard case .end(.failed) = plain.connectFailed(refused, now: 0) else { Issue.record("waited without --retry-connrefused"); return }
        var life = ConnectionLife(oneShot { $0.retriesRefused = true }, random: { 0 })
        var delays: [Double] = []
        var firsts: [Bool] = []
        for _ in 1...5 {
            guard case .retry(_, let seconds, .refused(let first)) = life.connectFailed(refused, now: 0) else { Issue.record("ended"); return }
            delays.append(seconds)
            firsts.append(first)
        }
        #expect(delays == [0.25, 0.5, 1, 2, 2])
        #expect(firsts == [true, false, false, false, false], "one note")
    }

    @Test func thePairingWaitAsksAgainUntilTheDeadlineThenSaysSo() {
        var life = ConnectionLife(oneShot { $0.waitsForPairing = true }, random: { 0 })
        let unpaired = GatewayError.authenticationFailed(.pairingRequired(requestId: "r-1", reason: nil), nil)
        #expect(delay(life.connectFailed(unpaired, now: 0)) == 1)
        #expect(delay(life.connectFailed(unpaired, now: at(1))) == 2)
        guard case .end(.stillUnpaired(let id)) = life.connectFailed(unpaired, now: at(29)) else { Issue.record("no end"); return }
        #expect(id == "r-1")
        var without = ConnectionLife(oneShot(), random: { 0 })
        guard case .end(.failed) = without.connectFailed(unpaired, now: 0) else { Issue.record("waited"); return }
    }

    @Test func aConnectTimeoutEndsAOneShotCommandAndIsRetriedByALongLivedClient() {
        let timedOut = GatewayError.handshakeTimedOut(url: "ws://127.0.0.1:1", waitingFor: nil, limitSeconds: 10)
        var command = ConnectionLife(oneShot(), random: { 0 })
        guard case .end(.failed) = command.connectFailed(timedOut, now: 0) else { Issue.record("retried"); return }
        var client = ConnectionLife(longLived(), random: { 0 })
        #expect(delay(client.connectFailed(timedOut, now: 0)) == 1)
    }

    @Test func theUnauthenticatedSocketCapIsWaitedOutWithJitterWithinTheDeadline() {
        let capped = GatewayError.admissionRefused(.tooManyUnauthenticatedSockets)
        var low = ConnectionLife(oneShot(), random: { 0 })
        var high = ConnectionLife(oneShot(), random: { 1 })
        guard case .retry(_, let first, .admission(true)) = low.connectFailed(capped, now: 0) else { Issue.record("not waited"); return }
        #expect(first == 0.125)
        #expect(delay(high.connectFailed(capped, now: 0)) == 0.25)
        guard case .retry(_, let second, .admission(false)) = low.connectFailed(capped, now: 0) else { Issue.record("not waited"); return }
        #expect(second == 0.25, "doubling, one note")
        guard case .end(.failed) = low.connectFailed(capped, now: at(29.95)) else { Issue.record("waited past the deadline"); return }
    }

    @Test func theGatewaysOwn503IsToldFromAProxys() {
        guard case .admissionRefused(.tooManyUnauthenticatedSockets)? =
            GatewayError.admissionRefusal(httpStatus: 503, body: "Too many unauthenticated sockets") else { Issue.record("not read"); return }
        guard case .admissionRefused(.notReady)? =
            GatewayError.admissionRefusal(httpStatus: 503, body: "Gateway websocket handlers unavailable") else { Issue.record("not read"); return }
        #expect(GatewayError.admissionRefusal(httpStatus: 503, body: "<html>Service Unavailable</html>") == nil)
        #expect(GatewayError.admissionRefusal(httpStatus: 502, body: "Too many unauthenticated sockets") == nil)
    }

    @Test func anErrorNotWorthRetryingEndsALongLivedClient() {
        var life = ConnectionLife(longLived(), random: { 0 })
        life.connecting()
        let certificate = GatewayError.certificateRejected(host: "gw", detail: "self-signed", nameMismatch: false)
        guard case .end(.failed) = life.connectFailed(certificate, now: 0) else { Issue.record("retried"); return }
        #expect(life.failures == 1)  // the failed connect is counted, and ends the life
        #expect(life.state == .ended)
    }

    @Test(arguments: ["idle", "connecting", "waiting", "open"])
    func anInterruptEndsTheLifeInEveryState(_ name: String) {
        var life = ConnectionLife(longLived(), random: { 0 })
        switch name {
        case "connecting": life.connecting()
        case "waiting": life.connecting(); _ = life.connectFailed(dropped, now: 0)
        case "open": life.connecting(); life.connected(tickIntervalMs: 30_000, now: 0)
        default: break
        }
        guard case .end(.interrupted) = life.interrupted() else { Issue.record("not ended"); return }
        #expect(life.state == .ended)
        #expect(life.nextDeadline == .max, "no timer left")
    }
}
