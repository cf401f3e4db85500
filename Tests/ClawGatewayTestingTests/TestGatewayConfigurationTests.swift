import Glibc
import Testing
import ClawGatewayClient
import ClawGatewayTesting

/// `TestGatewayConfiguration` as a user's test sets it, each setting seen from a real client.
@Suite struct TestGatewayConfigurationTests {
    private func client(_ gateway: TestGateway, token: String? = "secret") -> GatewayConfiguration {
        var configuration = GatewayConfiguration(url: gateway.url)
        configuration.token = token.map(Secret.init)
        return configuration
    }

    private func configuration(_ change: (inout TestGatewayConfiguration) -> Void) -> TestGatewayConfiguration {
        Self.changed(change)
    }

    @Test func theDefaultGatewayEchoesAndSpeaksProtocolFour() async throws {
        let gateway = try TestGateway.start(configuration { _ in })
        defer { gateway.stop() }
        #expect(gateway.port > 0 && gateway.port != 18789)
        let (version, reply) = try await GatewayConnection.withConnection(client(gateway)) { connection in
            (connection.hello.protocolVersion, try await connection.send("hello there").reply())
        }
        #expect(version == 4)
        #expect(reply == "hello there")
    }

    @Test func protocolThree() async throws {
        let gateway = try TestGateway.start(configuration { $0.protocolVersion = 3 })
        defer { gateway.stop() }
        let version = try await GatewayConnection.withConnection(client(gateway)) { $0.hello.protocolVersion }
        #expect(version == 3)
    }

    @Test func aLoremReplyHasItsWords() async throws {
        let gateway = try TestGateway.start(configuration { $0.reply = .lorem(words: 40); $0.deltaInterval = .zero })
        defer { gateway.stop() }
        let reply = try await GatewayConnection.withConnection(client(gateway)) { try await $0.send("go").reply() }
        #expect(reply.split(separator: " ").count == 40)
    }

    @Test func anErrorReplyFailsTheRun() async throws {
        let gateway = try TestGateway.start(configuration { $0.reply = .error })
        defer { gateway.stop() }
        await #expect {
            try await GatewayConnection.withConnection(client(gateway)) { _ = try await $0.send("fail").reply() }
        } throws: { error in
            (error as? GatewayClientError)?.code == .runFailed
        }
    }

    @Test func theTokenIsRequired() async throws {
        let gateway = try TestGateway.start(configuration { _ in })
        defer { gateway.stop() }
        await #expect {
            try await GatewayConnection.withConnection(client(gateway, token: "wrong")) { _ in }
        } throws: { error in
            (error as? GatewayClientError)?.authenticationProblem == .tokenRefused
        }
    }

    @Test func aSuspendedGatewayRefusesUntilResumed() async throws {
        let gateway = try TestGateway.start(configuration { $0.startsSuspended = true })
        defer { gateway.stop() }
        await #expect {
            try await GatewayConnection.withConnection(client(gateway)) { _ in }
        } throws: { error in
            guard let error = error as? GatewayClientError else { return false }
            return error.code == .gatewayRestarting && error.isRetryable
        }
        gateway.resume()
        try await GatewayConnection.withConnection(client(gateway)) { _ in }
    }

    @Test func aSequenceGapFaultIsReported() async throws {
        let gateway = try TestGateway.start(configuration {
            $0.faults = [.sequenceGap(every: 2)]
            // Ticks carry the gaps; 100 ms keeps the silence limit (2 ticks) clear of a busy machine.
            $0.tickInterval = .milliseconds(100)
        })
        defer { gateway.stop() }
        let gap = try await GatewayConnection.withConnection(client(gateway)) { connection -> SequenceGap? in
            for try await event in connection.events() where event.gap != nil { return event.gap }
            return nil
        }
        #expect(gap.map { $0.received > $0.expected } == true)
    }

    @Test func theLogHasEveryFrame() async throws {
        var template = Array("/tmp/claw-testing-log.XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        close(fd)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(path) }
        let gateway = try TestGateway.start(configuration { $0.logPath = path })
        _ = try await GatewayConnection.withConnection(client(gateway)) { try await $0.request("health") }
        gateway.stop()
        let log = try #require(fopen(path, "r"))
        defer { fclose(log) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        while fgets(&buffer, Int32(buffer.count), log) != nil {
            lines.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        let methods = lines.compactMap { try? JSONValue(parsing: $0) }
            .filter { $0["dir"]?.stringValue == "in" }.compactMap { $0["frame"]?["method"]?.stringValue }
        #expect(methods == ["connect", "health"])
    }

    static func changed(_ change: (inout TestGatewayConfiguration) -> Void) -> TestGatewayConfiguration {
        var configuration = TestGatewayConfiguration()
        configuration.token = "secret"
        change(&configuration)
        return configuration
    }

    @Test(arguments: [
        (changed { $0.reply = .lorem(words: 0) }, "lorem(words: 0): at least one word"),
        (changed { $0.protocolVersion = 5 }, "protocol version 5: a gateway speaks 3 or 4"),
        (changed { $0.port = 70000 }, "port 70000 is not a TCP port"),
        (changed { $0.reply = .retry(times: 10) }, "retry(times: 10): 1 to 9"),
        (changed { $0.password = "p" }, "give either a token or a password, not both (the gateway has one auth mode)"),
    ])
    func aSettingOutOfRangeIsAUsageError(configuration: TestGatewayConfiguration, sentence: String) {
        do throws(TestGatewayError) {
            let gateway = try TestGateway.start(configuration)
            gateway.stop()
            Issue.record("started")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.description == sentence)
        }
    }
}
