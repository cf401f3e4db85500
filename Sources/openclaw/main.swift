@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto

OpenSSLRuntime.prepareForShortLivedProcess()
// Swift decodes argv leniently (U+FFFD for bad bytes): find an argument that is not UTF-8 first, so
// it is refused, as stdin and --file are, instead of sent changed.
let notUTF8 = (1..<Int(CommandLine.argc)).first { index in
    CommandLine.unsafeArgv[index].map { String(validatingCString: $0) == nil } ?? false
}
ThisProcess.exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst()), invalidUTF8Argument: notUTF8).rawValue)
