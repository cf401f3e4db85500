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

server.start()
// The first stdout line, written and flushed in one call: tests wait for it.
FileHandle.standardOutput.write(Data("listening on \(server.url)\n".utf8))
dispatchMain()
