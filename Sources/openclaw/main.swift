import Glibc
import OpenClawKit

OpenSSLRuntime.prepareForShortLivedProcess()
exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
