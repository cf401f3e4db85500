// ask: sends its arguments as one question and streams the reply to stdout. Ctrl-C (or SIGTERM)
// cancels the task reading the reply: the cancellation sends `chat.abort` to the gateway at once (the
// run was started inside withConnection), and ask ends by the signal itself (`$?` 130 or 143), as a
// shell expects of an interrupted command, so a loop running it stops too — within a second even
// when the reader of stdout never reads (`ask … | less`, left open).
//
//     ask "What is on my calendar today?"
import ClawGatewayClient
import Dispatch
import Glibc
import Synchronization

/// The signal that interrupted the question (0: none).
let interruptedBy = Atomic<Int32>(0)

/// Ends the process by the signal itself, its default action restored, after the clean-up: the
/// parent sees a death by SIGINT (a shell loop stops), not an exit that merely looks like one.
func end(by signalNumber: Int32) -> Never {
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
    _exit(128 + signalNumber)
}

/// Writes `message` to stderr and exits (C's `stderr` global is shared mutable state to Swift 6).
func fail(_ message: String, status: Int32 = 1) -> Never {
    let line = "ask: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(status)
}

let question = CommandLine.arguments.dropFirst().joined(separator: " ")
guard !question.isEmpty else { fail("usage: ask QUESTION...", status: 2) }

let configuration: GatewayConfiguration
do { configuration = try GatewayConfiguration.official() } catch { fail("\(error)", status: 2) }

let asking = Task {
    try await GatewayConnection.withConnection(configuration) { gateway in
        for try await update in try await gateway.send(question) {
            switch update.change {
            case .appended(let more): print(more, terminator: "")
            case .rewritten: print("\n" + update.text, terminator: "")
            case .unchanged: break
            }
            fflush(nil)  // the reply as it grows, on a terminal or a pipe
        }
        print()
    }
}

// Signals become a cancellation. The handler is marked @Sendable: top-level code runs on the main
// actor, and Swift 6 would otherwise treat the closure as main-actor code and trap when the signal
// queue calls it. The task may be stuck in print() behind a reader that never reads, where no await
// sees the cancellation: the abort goes out anyway, and after a second the process ends regardless
// (_exit, not exit: exit would flush stdout and block on the same reader).
var sources: [any DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)  // the source, not the default action, handles it
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
    source.setEventHandler { @Sendable in
        _ = interruptedBy.compareExchange(expected: 0, desired: signalNumber, ordering: .sequentiallyConsistent)
        asking.cancel()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { end(by: signalNumber) }
    }
    source.resume()
    sources.append(source)
}

do {
    try await asking.value
} catch is CancellationError {
    print()
    fflush(nil)
    let line = "ask: interrupted: the run was aborted\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    end(by: interruptedBy.load(ordering: .sequentiallyConsistent))
} catch {
    fail("\(error)")
}
