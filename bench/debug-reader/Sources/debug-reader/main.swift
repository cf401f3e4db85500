// debug-reader: sends one message, iterates the run to its end and prints one line of figures: updates,
// reply bytes, CPU seconds (user + system) in all and over the last 100 updates, wall seconds, and
// "outcome ok" or the error that ended it.
//
//     OPENCLAW_GATEWAY_URL=ws://127.0.0.1:PORT OPENCLAW_GATEWAY_TOKEN=T debug-reader
import ClawGatewayClient
import Glibc

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1_000_000 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

func wallSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}

let startCPU = cpuSeconds()
let startWall = wallSeconds()
var updates = 0
var bytes = 0
var cpuAtUpdate: [Double] = []
var outcome = "ok"
do {
    let configuration = try GatewayConfiguration.official()
    try await GatewayConnection.withConnection(configuration) { gateway in
        for try await update in try await gateway.send("tell me a long story") {
            updates += 1
            bytes = update.text.utf8.count
            cpuAtUpdate.append(cpuSeconds())
        }
    }
} catch {
    outcome = "\(error)".split(separator: "\n").joined(separator: " ")
}
let last100 = cpuAtUpdate.count > 100 ? cpuAtUpdate[cpuAtUpdate.count - 1] - cpuAtUpdate[cpuAtUpdate.count - 101] : 0
print("updates \(updates) bytes \(bytes) cpu \(cpuSeconds() - startCPU) last100 \(last100) wall \(wallSeconds() - startWall) outcome \(outcome)")
