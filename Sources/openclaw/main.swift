import Glibc

exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
