@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto

OpenSSLRuntime.prepareForShortLivedProcess()
ThisProcess.exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
