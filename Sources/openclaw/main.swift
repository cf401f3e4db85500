import Glibc
import ClawCrypto

OpenSSLRuntime.prepareForShortLivedProcess()
exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
