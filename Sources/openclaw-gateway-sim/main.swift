import Foundation

// openclaw-gateway-sim: see SimulatorOptions.helpText.
signal(SIGPIPE, SIG_IGN)

let options: SimulatorOptions
do {
    guard let parsed = try SimulatorOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
        FileHandle.standardOutput.write(Data((SimulatorOptions.helpText + "\n").utf8))
        exit(0)
    }
    options = parsed
} catch {
    FileHandle.standardError.write(Data("openclaw-gateway-sim: \(error.description)\n".utf8))
    exit(2)
}

let server: GatewayServer
do {
    server = try GatewayServer(options: options)
} catch {
    FileHandle.standardError.write(Data("openclaw-gateway-sim: \(error.description)\n".utf8))
    exit(1)
}

signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
let signalQueue = DispatchQueue(label: "signals")
let stopSignals = [SIGTERM, SIGINT].map { DispatchSource.makeSignalSource(signal: $0, queue: signalQueue) }
for source in stopSignals {
    source.setEventHandler {
        server.shutdown()
        exit(0)
    }
    source.resume()
}

// SIGUSR1 suspends the gateway, SIGUSR2 resumes it (see --suspended).
signal(SIGUSR1, SIG_IGN)
signal(SIGUSR2, SIG_IGN)
let suspensionSignals = [(SIGUSR1, true), (SIGUSR2, false)].map { signalNumber, suspends in
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
    source.setEventHandler { suspends ? server.gateway.admission.suspend() : server.gateway.admission.resume() }
    source.resume()
    return source
}

server.start()
// The first stdout line, written and flushed in one call: tests wait for it.
FileHandle.standardOutput.write(Data("listening on \(server.url)\n".utf8))
dispatchMain()
