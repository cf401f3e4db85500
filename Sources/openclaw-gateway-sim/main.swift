import Foundation
import ClawGatewayTesting

// openclaw-gateway-sim: the gateway of ClawGatewayTesting behind a command line (see --help). The
// process's part stays here: exit statuses, the first stdout line, and the signals.
signal(SIGPIPE, SIG_IGN)

let gateway: TestGateway
do throws(TestGatewayError) {
    guard let started = try TestGateway.start(commandLine: Array(CommandLine.arguments.dropFirst())) else {
        FileHandle.standardOutput.write(Data((TestGateway.helpText + "\n").utf8))
        exit(0)
    }
    gateway = started
} catch {
    FileHandle.standardError.write(Data("openclaw-gateway-sim: \(error.description)\n".utf8))
    exit(error.kind == .usage ? 2 : 1)
}

signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
let signalQueue = DispatchQueue(label: "signals")
let stopSignals = [SIGTERM, SIGINT].map { DispatchSource.makeSignalSource(signal: $0, queue: signalQueue) }
for source in stopSignals {
    source.setEventHandler {
        gateway.stop()
        exit(0)
    }
    source.resume()
}

// SIGUSR1 suspends the gateway, SIGUSR2 resumes it (see --suspended).
signal(SIGUSR1, SIG_IGN)
signal(SIGUSR2, SIG_IGN)
let suspensionSignals = [(SIGUSR1, true), (SIGUSR2, false)].map { signalNumber, suspends in
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
    source.setEventHandler { suspends ? gateway.suspend() : gateway.resume() }
    source.resume()
    return source
}

// The first stdout line, written and flushed in one call: tests wait for it.
FileHandle.standardOutput.write(Data("listening on \(gateway.url)\n".utf8))
dispatchMain()
