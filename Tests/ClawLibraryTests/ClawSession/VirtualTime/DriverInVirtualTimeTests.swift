import Glibc
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawState
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawProtocol

/// The driver (`ConnectionRunner`), its pump and the keepalive, run over real loopback sockets to a
/// scripted gateway in virtual time: minutes of a connection's life — pings, silences, backoffs, a
/// pairing wait — in milliseconds, each moment exact.
@Suite struct DriverInVirtualTimeTests {
    /// A face that records what the driver told it, when (virtual seconds), and can be interrupted.
    final class VirtualFace: ConnectionFace {
        let clock: VirtualClock
        let pipe = Pipes.makeNonBlocking()!
        private(set) var isInterrupted = false
        private(set) var connects: [Double] = []
        private(set) var waits: [ConnectionLife.Wait] = []
        private(set) var lost: [GatewayError] = []
        private(set) var pairings: [Bool] = []

        init(_ clock: VirtualClock) { self.clock = clock }

        deinit {
            close(pipe.read)
            close(pipe.write)
        }

        /// A signal, as the CLI's handler reports one.
        func interrupt() {
            isInterrupted = true
            FileDescriptor.writeFromSignalHandler(1, to: pipe.write)
        }

        var interruptDescriptor: Int32 { pipe.read }
        func willConnect(attempt: Int) { connects.append(clock.elapsed) }
        func connectionLost(_ error: GatewayError) { lost.append(error) }
        func sentence(for error: GatewayError) -> String { "\(error)" }
        func sentence(for failure: SSHTunnelFailure, route: SSHRoute) -> String { "\(failure)" }
        func willWait(_ why: ConnectionLife.Wait, seconds: Double, after error: GatewayError) { waits.append(why) }
        func pairing(_ pending: PendingPairing, approved: Bool) { pairings.append(approved) }
    }

    /// One life: a gateway with `answers`, a clock, a face, and the runner between them.
    final class Life {
        let gateway: ScriptedGateway
        let clock = VirtualClock()
        let face: VirtualFace
        let runner: ConnectionRunner
        /// The events the face was handed, by name, and the engine's event gap for each.
        private(set) var events: [String] = []
        private(set) var gaps: [Int64?] = []

        init(_ answers: [ScriptedGateway.Answer], url: WebSocketURL? = nil, waitsForPairing: Bool = false,
             rules change: (inout ConnectionLife.Rules, VirtualClock) -> Void = { _, _ in }) throws {
            gateway = try ScriptedGateway(answers)
            face = VirtualFace(clock)
            var options = SessionOptions(url: url ?? gateway.url, clientVersion: "test")
            options.waitsForPairing = waitsForPairing
            var rules = ConnectionLife.Rules()
            rules.waitsForPairing = waitsForPairing
            change(&rules, clock)
            runner = ConnectionRunner(options: options, environment: Environment(), rules: rules, face: face,
                                      pingInterval: 15, random: { 0.5 }, clock: clock)
        }

        deinit { gateway.stop() }

        /// `seconds` of virtual time from the start, as a deadline.
        func moment(_ seconds: Double) -> UInt64 { clock.start + UInt64(seconds * 1e9) }

        /// Runs the life, following each connection until it is lost, the face is interrupted, or
        /// `seconds` of virtual time have passed (the face then closes it): how it ended.
        func run(until seconds: Double) -> ConnectStop? {
            let end = Deadline(nanoseconds: moment(seconds))
            do {
                try runner.run { _, _ in
                    do {
                        while true {
                            switch try runner.next(until: end, alert: face.interruptDescriptor, input: -1) {
                            case .frame(let frame):
                                events.append(frame.eventName ?? "?")
                                gaps.append(runner.eventGap)
                            case .alert, .timeout: return nil
                            case .input: continue
                            }
                        }
                    } catch let error as GatewayError {
                        return error
                    }
                }
                return nil
            } catch let stop as ConnectStop {
                return stop
            } catch {
                Issue.record("\(error)")
                return nil
            }
        }
    }

    @Test func anIdleLinkIsPingedAndASilentGatewayIsLostAtTwoTicks() throws {
        let life = try Life([.hello(tickMs: 30_000)])
        let stop = life.run(until: 600)
        guard case .ended(.failed(.connectionLost(_, let code)))? = stop else { Issue.record("\(String(describing: stop))"); return }
        #expect(code == 4000)
        #expect(life.clock.elapsed == 60, "two ticks of 30 s")
        #expect(life.gateway.controlFrames(on: 0).filter { $0 == .ping }.count == 3, "at 15, 30 and 45 s: \(life.gateway.controlFrames(on: 0))")
    }

    @Test func aTickKeepsTheLinkAlive() throws {
        let life = try Life([.hello(tickMs: 30_000)])
        for second in stride(from: 25.0, through: 175, by: 25) {
            life.clock.at(second) { life.gateway.send(event: "tick", payload: ["ts": 1], on: 0) }
        }
        #expect(life.run(until: 200) == nil)
        #expect(life.clock.elapsed == 200)
        #expect(life.events == Array(repeating: "tick", count: 7))
        #expect(life.face.lost.isEmpty)
    }

    @Test func aDroppedConnectionIsConnectedAgainAfterTheBackoff() throws {
        let life = try Life([.hello(tickMs: 30_000), .hello(tickMs: 30_000)]) { rules, _ in
            rules.reconnect(base: 2, maximum: 30, maxRetries: nil)
        }
        life.clock.at(10) { life.gateway.drop(0, code: 1011) }
        #expect(life.run(until: 40) == nil)
        #expect(life.face.waits == [.reconnect(afterFailedConnect: false)])
        #expect(life.gateway.connections == 2)
        // 2 s plus a quarter of it at the draw 0.5: 2.25 s after the drop.
        #expect(life.face.connects == [0, 12.25])
    }

    @Test func anAnnouncedRestartIsWaitedOutForTheDelayItNames() throws {
        let life = try Life([.hello(tickMs: 30_000), .hello(tickMs: 30_000)]) { rules, _ in
            rules.reconnect(base: 1, maximum: 30, maxRetries: nil)
        }
        life.clock.at(5) {
            life.gateway.send(event: "shutdown", payload: ["reason": "restart", "restartExpectedMs": 7000], on: 0)
            life.gateway.drop(0, code: 1012)
        }
        #expect(life.run(until: 30) == nil)
        #expect(life.events == ["shutdown"])
        #expect(life.face.connects == [0, 12])
    }

    @Test func aReconnectingClientGivesUpAfterItsRetries() throws {
        // Nothing listens after the first connection: each retry is refused.
        let life = try Life([.hello(tickMs: 30_000)]) { rules, _ in
            rules.reconnect(base: 1, maximum: 4, maxRetries: 2)
        }
        life.clock.at(3) { life.gateway.stop() }
        guard case .ended(.gaveUp(_, let retries))? = life.run(until: 600) else { Issue.record("did not give up"); return }
        #expect(retries == 2)
        #expect(life.face.waits == [.reconnect(afterFailedConnect: false), .reconnect(afterFailedConnect: true),
                                    .reconnect(afterFailedConnect: true)].prefix(life.face.waits.count).map { $0 })
        #expect(life.face.connects.count == 3, "the first connection and two retries")
    }

    @Test func thePairingWaitConnectsOnApproval() throws {
        let life = try Life([.pairingRequired(requestId: "r1", held: true), .hello(tickMs: 30_000)], waitsForPairing: true) { rules, clock in
            rules.deadline = clock.start + 120_000_000_000
        }
        life.clock.at(30) {
            life.gateway.send(event: "device.pair.resolved", payload: ["requestId": "r1", "decision": "approved"], on: 0)
        }
        #expect(life.run(until: 40) == nil)
        #expect(life.face.pairings == [false, true])
        #expect(life.face.connects == [0, 30], "connected again at the approval, with no pause")
        #expect(life.gateway.connections == 2)
    }

    @Test func aRefusedPairingEndsWithTheDecision() throws {
        let life = try Life([.pairingRequired(requestId: "r1", held: true)], waitsForPairing: true) { rules, clock in
            rules.deadline = clock.start + 120_000_000_000
        }
        life.clock.at(30) {
            life.gateway.send(event: "device.pair.resolved", payload: ["requestId": "r1", "decision": "rejected"], on: 0)
        }
        guard case .pairingDecided(.rejected, let requestId)? = life.run(until: 600) else { Issue.record("not refused"); return }
        #expect(requestId == "r1")
        #expect(life.clock.elapsed == 30)
    }

    @Test func thePairingWaitEndsAtItsLimit() throws {
        let life = try Life([.pairingRequired(requestId: "r1", held: true)], waitsForPairing: true) { rules, clock in
            rules.deadline = clock.start + 45_000_000_000
        }
        guard case .ended(.stillUnpaired(let requestId))? = life.run(until: 600) else { Issue.record("did not run out"); return }
        #expect(requestId == "r1")
        #expect(life.clock.elapsed == 45)
    }

    @Test func aPairingRequestNotHeldIsAskedAgainAfterThePairingBackoff() throws {
        let life = try Life([.pairingRequired(requestId: "r1", held: false), .hello(tickMs: 30_000)], waitsForPairing: true) { rules, clock in
            rules.deadline = clock.start + 120_000_000_000
        }
        #expect(life.run(until: 10) == nil)
        #expect(life.face.waits == [.pairing(requestId: "r1", reason: "not-paired", first: true)])
        #expect(life.face.connects == [0, 1.125], "1 s and a quarter of it at the draw 0.5")
    }

    @Test func theUnauthenticatedSocketCapIsWaitedOut() throws {
        let life = try Life([.tooManyUnauthenticated, .tooManyUnauthenticated, .hello(tickMs: 30_000)]) { rules, clock in
            rules.deadline = clock.start + 60_000_000_000
        }
        #expect(life.run(until: 5) == nil)
        #expect(life.face.waits == [.admission(first: true), .admission(first: false)])
        // Spread within [½, 1] of 0.25 s, then of 0.5 s, at the draw 0.5.
        #expect(life.face.connects == [0, 0.1875, 0.5625])
        #expect(life.gateway.connections == 3)
    }

    @Test func anInterruptWhileWaitingToReconnectEndsTheLife() throws {
        let life = try Life([.hello(tickMs: 30_000), .hello(tickMs: 30_000)]) { rules, _ in
            rules.reconnect(base: 5, maximum: 30, maxRetries: nil)
        }
        life.clock.at(10) { life.gateway.drop(0, code: 1011) }
        life.clock.at(11) { life.face.interrupt() }
        guard case .ended(.interrupted)? = life.run(until: 60) else { Issue.record("not interrupted"); return }
        #expect(life.clock.elapsed == 11)
        #expect(life.gateway.connections == 1)
    }

    @Test func anInterruptDuringThePairingWaitEndsIt() throws {
        let life = try Life([.pairingRequired(requestId: "r1", held: true)], waitsForPairing: true) { rules, clock in
            rules.deadline = clock.start + 120_000_000_000
        }
        life.clock.at(20) { life.face.interrupt() }
        guard case .ended(.interrupted)? = life.run(until: 600) else { Issue.record("not interrupted"); return }
        #expect(life.clock.elapsed == 20)
        #expect(life.face.pairings == [false])
    }

    @Test func anInterruptWhileFollowingIsHandedToTheFace() throws {
        let life = try Life([.hello(tickMs: 30_000)])
        life.clock.at(7) { life.face.interrupt() }
        #expect(life.run(until: 600) == nil)
        #expect(life.clock.elapsed == 7)
        #expect(life.face.lost.isEmpty)
    }

    @Test func aRefusedConnectIsAskedAgainUntilTheDeadline() throws {
        let port = try LoopbackPort.ephemeral()  // free: nothing listens there
        let life = try Life([], url: WebSocketURL(isSecure: false, host: "127.0.0.1", port: port)) { rules, clock in
            rules.retriesRefused = true
            rules.deadline = clock.start + 3_000_000_000
        }
        guard case .ended(.failed(let error))? = life.run(until: 600), error.isConnectionRefused else { Issue.record("not refused"); return }
        // 0.25, 0.5, 1 s (each and an eighth at the draw 0.5); the next, 2 s, would pass the deadline.
        #expect(life.face.waits == [.refused(first: true), .refused(first: false), .refused(first: false)])
        #expect(life.face.connects == [0, 0.28125, 0.84375, 1.96875])
    }

    /// Protocol 4 numbers each connection's events: a skip is loss, told with the number expected.
    /// Protocol 3 numbers broadcasts globally: a skip there is someone else's event.
    @Test(arguments: [(4, [nil, nil, 3, nil] as [Int64?]), (3, [nil, nil, nil, nil])])
    func theEventGapRuleIsTheEnginesForProtocolFour(_ version: Int, _ expected: [Int64?]) throws {
        let life = try Life([.hello(tickMs: 30_000, protocol: version)])
        for (moment, seq) in [(1.0, 1), (2, 2), (3, 4), (4, 5)] {
            life.clock.at(moment) { life.gateway.send(event: "tick", payload: ["ts": 1], seq: seq, on: 0) }
        }
        #expect(life.run(until: 10) == nil)
        #expect(life.gaps == expected)
    }
}
