import Foundation
@_spi(Engine) import ClawJSON

// What the end-to-end suites read from the simulator's `--log` (one `{"dir","conn","frame"}` line per
// frame, plus keepalive lines), and the signals they send it.

/// The params of every request for `method` the simulator received, in order.
func requests(_ sim: SimulatorProcess, _ method: String) -> [JSONValue] {
    sim.logEntries().compactMap { entry in
        guard entry["dir"]?.stringValue == "in", entry["frame"]?["method"]?.stringValue == method else { return nil }
        return entry["frame"]?["params"]
    }
}

/// The params of every request for `method` the fixture's simulator received, in order.
func requests(_ gateway: GatewayFixture, _ method: String) -> [JSONValue] {
    requests(gateway.simulator, method)
}

/// Waits until the simulator has received `count` requests for `method` (an event, not a sleep); false after 20 s.
func waitForRequests(_ simulator: SimulatorProcess, _ method: String, count: Int = 1) -> Bool {
    eventually(20) {
        let seen = simulator.logEntries().filter {
            $0["dir"]?.stringValue == "in" && $0["frame"]?["method"]?.stringValue == method
        }
        return seen.count >= count
    }
}

/// The connects the simulator answered `UNAVAILABLE`.
func refusedConnects(_ sim: SimulatorProcess) -> [JSONValue] {
    sim.logEntries().filter { $0["dir"]?.stringValue == "out" && $0["frame"]?["error"]?["code"]?.stringValue == "UNAVAILABLE"
        && $0["frame"]?["id"]?.stringValue == "1" }
}

/// The keepalive lines of the log for `direction`: `pong` (a client answered a ping), `dropped` (a client
/// that did not answer in time was dropped).
func keepAliveLines(_ sim: SimulatorProcess, _ direction: String) -> [JSONValue] {
    sim.logEntries().filter { $0["dir"]?.stringValue == direction }
}

/// How many pongs the simulator has received.
func pongs(_ sim: SimulatorProcess) -> Int { keepAliveLines(sim, "pong").count }

/// The connections the simulator dropped for a missing pong.
func dropped(_ sim: SimulatorProcess) -> [JSONValue] { keepAliveLines(sim, "dropped") }

/// Sends signal `number` to the simulator: SIGUSR1 suspends it, SIGUSR2 resumes it.
func signal(_ sim: SimulatorProcess, _ number: Int32) { kill(sim.process.processIdentifier, number) }
