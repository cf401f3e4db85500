import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// The gateway's cap of unauthenticated sockets per client address (HTTP 503 "Too many
/// unauthenticated sockets"): the simulator keeps it, and a one-shot command waits it out.
@Suite struct CLIAdmissionCapTests {
    /// The simulator's refusals of an upgrade past the cap.
    static func refusals(_ simulator: SimulatorProcess) -> Int {
        simulator.logEntries().filter { $0["dir"]?.stringValue == "refused" }.count
    }

    @Test func theSimulatorAnswersAnUpgradePastTheCapWith503AndTheGatewaysWords() throws {
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token, "--max-unauthenticated", "1"])
        let holder = try RawFrameClient(port: simulator.port)  // upgraded, never authenticates: holds the place
        defer { holder.close() }
        let answer = try Self.upgradeAnswer(port: simulator.port)
        #expect(answer.hasPrefix("HTTP/1.1 503 "), "\(answer)")
        #expect(answer.hasSuffix("\r\n\r\nToo many unauthenticated sockets"), "\(answer)")
        #expect(Self.refusals(simulator) == 1)
    }

    @Test func aCommandThatCannotGetInWithinTimeoutSaysTheGatewayRefusedNotAProxy() throws {
        let gateway = try GatewayFixture(["--max-unauthenticated", "1"])
        let holder = try RawFrameClient(port: gateway.simulator.port)
        defer { holder.close() }
        let result = try gateway.run(["history", "--timeout", "1"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("Too many unauthenticated sockets"), "\(result.stderr)")
        #expect(!result.stderr.contains("proxy"), "\(result.stderr)")
        #expect(Self.refusals(gateway.simulator) >= 2, "it asked again within --timeout")
    }

    @Test func aQuietCommandWaitsTheCapOutWithoutANote() throws {
        let gateway = try GatewayFixture(["--max-unauthenticated", "1"])
        let holder = try RawFrameClient(port: gateway.simulator.port)
        let history = try gateway.cli.start(["history", "-q"])
        #expect(eventually { Self.refusals(gateway.simulator) >= 1 })
        holder.close()  // the place is free again
        let result = history.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    /// A cron storm: 300 one-shot commands started at once against a gateway whose cap they overrun all
    /// get their answer. The cap is 2 and a silent client holds one place until the storm has met the
    /// cap, so the commands really are turned away and must wait it out.
    @Test(.notUnderQEMU("300 emulated processes at once outlast any sensible limit"))
    func threeHundredCommandsStartedAtOnceAllSucceed() throws {
        let gateway = try GatewayFixture(["--max-unauthenticated", "2"])
        let holder = try RawFrameClient(port: gateway.simulator.port)
        let processes = try (0..<300).map { _ in try gateway.cli.start(["history", "-q", "--timeout", "120"]) }
        #expect(eventually { Self.refusals(gateway.simulator) >= 50 })
        holder.close()
        let results = processes.map { $0.finish(timeout: 180) }
        let failed = results.filter { $0.status != 0 }
        #expect(failed.isEmpty, "\(failed.count) failed; first: \(failed.first?.stderr ?? "")")
        #expect(Self.refusals(gateway.simulator) > 0, "the cap was reached (else this proves nothing)")
    }

    /// Sends an upgrade request and returns the whole answer the simulator gives before closing.
    static func upgradeAnswer(port: Int) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw CLIProcessError(description: "connect failed") }
        let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
