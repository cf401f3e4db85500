import ClawSystem
import ClawCrypto

OpenSSLRuntime.prepareForShortLivedProcess()
ThisProcess.exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
