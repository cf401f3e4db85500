@_spi(Engine) import ClawSystem

/// Keeps a subscription registered while any copy of its stream exists.
final class EventSubscription: Sendable {
    let sink: any EventSink
    /// The subscription's events, for an event stream.
    var buffer: EventBuffer { sink as! EventBuffer }
    private let release: @Sendable () -> Void

    init(buffer: any EventSink, release: @escaping @Sendable () -> Void) {
        sink = buffer
        self.release = release
    }

    convenience init(buffer: any EventSink, driver: ConnectionDriver) {
        self.init(buffer: buffer) { [weak driver] in driver?.unsubscribe(buffer) }
    }

    func cancel() { release() }

    deinit { release() }
}
