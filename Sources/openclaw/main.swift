import Glibc
import ClawSystem
import ClawJSON
import ClawCrypto
import ClawTransport
import ClawProtocol
import ClawState
import ClawSession

OpenSSLRuntime.prepareForShortLivedProcess()
exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
