enum SystemEventCommand {
    static func run(_ context: CommandContext) throws {
        throw CommandFailure(.usage, "not yet")
    }
}
