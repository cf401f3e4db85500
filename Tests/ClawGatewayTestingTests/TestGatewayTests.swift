import Testing
import ClawGatewayTesting

/// `TestGateway` as a user's test sees it: the public API only.
@Suite struct TestGatewayTests {
    @Test func startsOnAFreeLoopbackPort() throws {
        let gateway = try TestGateway.start()
        defer { gateway.stop() }
        #expect(gateway.port > 0 && gateway.port != 18789)
        #expect(gateway.url == "ws://127.0.0.1:\(gateway.port)")
        #expect(gateway.connectionCount == 0)
    }

    @Test func twoGatewaysGetDifferentPortsAndATakenPortIsRefused() throws {
        let first = try TestGateway.start(arguments: ["--tick-ms", "60000"])
        defer { first.stop() }
        let second = try TestGateway.start(arguments: ["--token", "s3cret"])
        defer { second.stop() }
        #expect(first.port != second.port)
        do throws(TestGatewayError) {
            let third = try TestGateway.start(arguments: ["--port", String(first.port)])
            third.stop()
            Issue.record("a third gateway started on port \(first.port), which the first one holds")
        } catch {
            #expect(error.kind == .cannotStart)
            #expect(error.description.hasPrefix("cannot listen on 127.0.0.1:\(first.port)"))
        }
    }

    @Test func stopIsIdempotent() throws {
        let gateway = try TestGateway.start()
        gateway.suspend()
        gateway.resume()
        gateway.stop()
        gateway.stop()
        #expect(gateway.connectionCount == 0)
    }

    @Test func restartsOnTheSamePort() throws {
        let first = try TestGateway.start()
        let port = first.port
        first.stop()
        for _ in 0..<3 {
            let again = try TestGateway.start(arguments: ["--port", String(port)])
            #expect(again.port == port)
            #expect(again.url == "ws://127.0.0.1:\(port)")
            again.stop()
        }
    }

    @Test(arguments: [
        (["--no-such-flag"], "unknown option '--no-such-flag' (see --help)"),
        (["--protocol", "5"], "--protocol: expected 3 or 4, got '5'"),
        (["--token"], "--token needs a value"),
        (["--token", "a", "--password", "b"], "give either --token or --password, not both (the gateway has one auth mode)"),
    ])
    func aBadFlagThrowsTheSimulatorsUsageSentence(arguments: [String], sentence: String) {
        do throws(TestGatewayError) {
            let gateway = try TestGateway.start(arguments: arguments)
            gateway.stop()
            Issue.record("started with \(arguments)")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.description == sentence)
        }
    }

    @Test func helpIsRefusedInProcess() {
        #expect(throws: TestGatewayError.self) { try TestGateway.start(arguments: ["--help"]) }
    }
}
