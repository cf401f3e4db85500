import Glibc
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawState
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawSession

/// The engine's driver over real sockets, with a face that records what it was told: a loopback
/// port nothing listens on refuses at once, so each test runs in well under a second.
@Suite struct ConnectionRunnerTests {
    /// A face whose interrupt is a real pipe, written from its own `willWait` when asked to.
    final class RecordingFace: ConnectionFace {
        let pipe = Pipes.makeNonBlocking()!
        var interruptAtFirstWait = false
        private(set) var interrupted = false
        private(set) var waits: [ConnectionLife.Wait] = []
        private(set) var attempts: [Int] = []

        deinit {
            close(pipe.read)
            close(pipe.write)
        }

        var interruptDescriptor: Int32 { pipe.read }
        var isInterrupted: Bool { interrupted }
        func willConnect(attempt: Int) { attempts.append(attempt) }
        func connectionLost(_ error: GatewayError) {}
        func sentence(for error: GatewayError) -> String { "\(error)" }
        func sentence(for failure: SSHTunnelFailure, route: SSHRoute) -> String { "\(failure)" }
        func pairing(_ pending: PendingPairing, approved: Bool) {}

        func willWait(_ why: ConnectionLife.Wait, seconds: Double, after error: GatewayError) {
            waits.append(why)
            if interruptAtFirstWait {
                interrupted = true
                FileDescriptor.writeFromSignalHandler(1, to: pipe.write)
            }
        }
    }

    func runner(_ face: RecordingFace, _ change: (inout ConnectionLife.Rules) -> Void = { _ in }) throws -> ConnectionRunner {
        let port = try LoopbackPort.ephemeral()  // free: nothing listens there
        var rules = ConnectionLife.Rules()
        change(&rules)
        let options = SessionOptions(url: WebSocketURL(isSecure: false, host: "127.0.0.1", port: port), clientVersion: "test")
        return ConnectionRunner(options: options, environment: Environment(), rules: rules, face: face, random: { 0.5 })
    }

    /// `open()` ends as the machine decided after a refused connect: with that error.
    func expectRefused(_ runner: ConnectionRunner, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try runner.open()
            Issue.record("connected to a port nothing listens on", sourceLocation: sourceLocation)
        } catch {
            guard case .ended(.failed(let failure)) = error, failure.isConnectionRefused else {
                Issue.record("\(error)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    @Test func aRefusedConnectEndsAtOnceUnlessRetriesAreAsked() throws {
        let face = RecordingFace()
        let runner = try runner(face)
        expectRefused(runner)
        #expect(face.waits.isEmpty && face.attempts == [1])
    }

    @Test func aRefusedConnectIsAskedAgainWithinTheDeadlineThenEnds() throws {
        let face = RecordingFace()
        // 0.25 s, then 0.5 s (with the draw 0.5): the third try would come after the deadline.
        let runner = try runner(face) {
            $0.retriesRefused = true
            $0.deadline = Deadline.after(seconds: 0.6).nanoseconds
        }
        expectRefused(runner)
        #expect(face.waits.first == .refused(first: true))
        #expect((1...2).contains(face.waits.count), "\(face.waits)")
        #expect(face.attempts == Array(1...(face.waits.count + 1)))
    }

    @Test func anInterruptEndsThePauseAndNoOtherTryIsMade() throws {
        let face = RecordingFace()
        face.interruptAtFirstWait = true
        let runner = try runner(face) {
            $0.retriesRefused = true
            $0.deadline = Deadline.after(seconds: 60).nanoseconds
        }
        do {
            _ = try runner.open()
            Issue.record("connected to a port nothing listens on")
        } catch {
            guard case .ended(.interrupted) = error else { Issue.record("\(error)"); return }
        }
        #expect(face.waits.count == 1 && face.attempts == [1])
        #expect(runner.life.state == .ended)
    }

    @Test func nothingToFollowBeforeAConnection() throws {
        let face = RecordingFace()
        let runner = try runner(face)
        #expect(throws: GatewayError.self) { _ = try runner.next(until: .never, alert: -1, input: -1) }
        #expect(try runner.take() == nil)
        #expect(runner.session == nil)
    }
}
