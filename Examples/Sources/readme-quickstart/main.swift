import ClawGatewayClient
import Glibc  // fflush

let configuration = try GatewayConfiguration.official()
try await GatewayConnection.withConnection(configuration) { gateway in
    for try await update in try await gateway.send("What is on my calendar today?") {
        if let more = update.appended { print(more, terminator: ""); fflush(nil) }  // the reply as it grows
        if update.isFinal { print() }
    }
}
