import Glibc

extension Subprocess {
    /// Bounds on one `exchange`.
    @_spi(Engine) public struct ExchangeLimits: Sendable {
        /// When the whole exchange must be over.
        @_spi(Engine) public var deadline: Deadline
        /// Seconds the child may go without writing anything (stdout or stderr); nil: no such limit.
        @_spi(Engine) public var idleTimeout: Double?
        /// Most bytes accepted from stdout and stderr together.
        @_spi(Engine) public var maxOutputBytes: Int
        /// A descriptor that becomes readable when the caller wants to stop (a signal's self-pipe).
        @_spi(Engine) public var interruptDescriptor: Int32?
        /// Seconds between SIGTERM and SIGKILL when the exchange fails.
        @_spi(Engine) public var terminationGrace: Double

        @_spi(Engine) public init(deadline: Deadline, idleTimeout: Double? = nil, maxOutputBytes: Int = 1 << 20,
                    interruptDescriptor: Int32? = nil, terminationGrace: Double = 1) {
            self.deadline = deadline
            self.idleTimeout = idleTimeout
            self.maxOutputBytes = maxOutputBytes
            self.interruptDescriptor = interruptDescriptor
            self.terminationGrace = terminationGrace
        }
    }

    /// What the child wrote and how it ended.
    @_spi(Engine) public struct Exchanged: Sendable {
        @_spi(Engine) public var standardOutput: [UInt8]
        @_spi(Engine) public var standardError: [UInt8]
        @_spi(Engine) public var termination: Termination
    }

    /// Why an exchange ended early; the child has been terminated and reaped by then.
    @_spi(Engine) public enum ExchangeFailure: Error, Sendable, Equatable {
        case timedOut
        case idleTimedOut
        case outputLimitExceeded
        case interrupted
        case io(SystemError)
    }

    /// What a non-blocking read from one of the child's pipes found.
    @_spi(Engine) public enum ReadResult: Sendable, Equatable {
        case read(Int)
        case endOfStream
        case wouldBlock
    }

    /// Reads what is available on `descriptor` (a non-blocking pipe end) into `buffer`, at most `limit` bytes.
    @_spi(Engine) public static func readAvailable(_ descriptor: Int32, into buffer: inout [UInt8], limit: Int = 65536) throws(SystemError) -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: max(1, min(limit, 65536)))
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return .read(count)
            }
            if count == 0 { return .endOfStream }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            throw SystemError(code: code)
        }
    }

    /// Writes `input` to the child's stdin and closes it, reads stdout and stderr until both end or the
    /// child exits, and waits for the child to exit, all within `limits`. A child that exits while
    /// something it started still holds its stdout or stderr is judged by its exit: what it wrote is
    /// taken, the pipes are closed, and the helper is left to end on its own. On any failure the child
    /// (and its process group) is terminated and reaped before the error is thrown, so nothing is left running.
    @_spi(Engine) public func exchange(input: [UInt8], limits: ExchangeLimits) throws(ExchangeFailure) -> Exchanged {
        do throws(ExchangeFailure) {
            return try runExchange(input: input, limits: limits)
        } catch {
            terminate(grace: limits.terminationGrace)
            throw error
        }
    }

    private func runExchange(input: [UInt8], limits: ExchangeLimits) throws(ExchangeFailure) -> Exchanged {
        var pending = input[...]
        if pending.isEmpty { closeStandardInput() }
        var output: [UInt8] = []
        var errorOutput: [UInt8] = []
        var idleDeadline = limits.idleTimeout.map { Deadline.after(seconds: $0) } ?? .never
        // There is no descriptor for the child's exit (see `wait(until:)`): while its pipes stay open it
        // is looked at between polls, at growing intervals of at most 20 ms.
        var exitCheck: UInt64 = 500_000

        while standardInput >= 0 || standardOutput >= 0 || standardError >= 0 {
            if let termination = checkTermination() {
                // Everything it wrote before it exited is in the pipes already.
                try drainAfterExit(&output, &errorOutput, limits: limits)
                return Exchanged(standardOutput: output, standardError: errorOutput, termination: termination)
            }
            var entries: [pollfd] = []
            if standardInput >= 0 { entries.append(pollfd(fd: standardInput, events: Int16(POLLOUT), revents: 0)) }
            if standardOutput >= 0 { entries.append(pollfd(fd: standardOutput, events: Int16(POLLIN), revents: 0)) }
            if standardError >= 0 { entries.append(pollfd(fd: standardError, events: Int16(POLLIN), revents: 0)) }
            if let interrupt = limits.interruptDescriptor {
                entries.append(pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0))
            }
            // Output only counts toward the idle limit once stdin is written.
            let wakeUp = min(limits.deadline, standardInput >= 0 ? limits.deadline : idleDeadline,
                             Deadline(nanoseconds: MonotonicClock.nanoseconds() &+ exitCheck))
            exitCheck = min(exitCheck * 2, 20_000_000)
            let ready = entries.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), wakeUp.pollTimeout) }
            if ready < 0 {
                if errno == EINTR { continue }
                throw .io(SystemError.last)
            }
            // An exit is judged before any limit that passed meanwhile (at the top of the loop).
            if checkTermination() != nil { continue }
            if limits.deadline.hasPassed { throw .timedOut }
            if standardInput < 0 && idleDeadline.hasPassed { throw .idleTimedOut }
            if ready == 0 { continue }
            for entry in entries where entry.revents != 0 {
                if entry.fd == limits.interruptDescriptor { throw .interrupted }
                if entry.fd == standardInput {
                    if try writeInput(&pending) { closeStandardInput() }
                    if standardInput < 0 { idleDeadline = limits.idleTimeout.map { Deadline.after(seconds: $0) } ?? .never }
                    continue
                }
                let isOutput = entry.fd == standardOutput
                var result: ReadResult
                do {
                    result = try isOutput
                        ? Self.readAvailable(entry.fd, into: &output)
                        : Self.readAvailable(entry.fd, into: &errorOutput)
                } catch {
                    throw .io(error)
                }
                switch result {
                case .read:
                    if output.count + errorOutput.count > limits.maxOutputBytes { throw .outputLimitExceeded }
                    idleDeadline = limits.idleTimeout.map { Deadline.after(seconds: $0) } ?? .never
                case .endOfStream:
                    if isOutput { closeStandardOutput() } else { closeStandardError() }
                case .wouldBlock:
                    break
                }
            }
        }
        // Both pipes ended: the child is exiting (or closed them and goes on, which the deadline bounds).
        while true {
            let step = min(limits.deadline, .after(seconds: 0.05))
            if let termination = wait(until: step) {
                return Exchanged(standardOutput: output, standardError: errorOutput, termination: termination)
            }
            if limits.deadline.hasPassed { throw .timedOut }
            if let interrupt = limits.interruptDescriptor {
                var entry = pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)
                if Glibc.poll(&entry, 1, 0) > 0 { throw .interrupted }
            }
        }
    }

    /// After the child's exit: takes what is left in its stdout and stderr without waiting for them to
    /// end (a helper it started may hold them open), then closes them and its stdin.
    private func drainAfterExit(_ output: inout [UInt8], _ errorOutput: inout [UInt8],
                                limits: ExchangeLimits) throws(ExchangeFailure) {
        closeStandardInput()
        for isOutput in [true, false] {
            let descriptor = isOutput ? standardOutput : standardError
            guard descriptor >= 0 else { continue }
            reading: while true {
                let result: ReadResult
                do {
                    result = try isOutput ? Self.readAvailable(descriptor, into: &output)
                                          : Self.readAvailable(descriptor, into: &errorOutput)
                } catch {
                    throw .io(error)
                }
                switch result {
                case .read:
                    if output.count + errorOutput.count > limits.maxOutputBytes { throw .outputLimitExceeded }
                case .endOfStream, .wouldBlock:
                    break reading
                }
            }
            if isOutput { closeStandardOutput() } else { closeStandardError() }
        }
    }

    /// Writes as much of `pending` as the pipe takes; true when all of it is written, or when the
    /// child closed its stdin (it then has no use for the rest). SIGPIPE is held back for this
    /// thread meanwhile, so a child that exits early cannot kill the parent.
    private func writeInput(_ pending: inout ArraySlice<UInt8>) throws(ExchangeFailure) -> Bool {
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        defer {
            // Discard a SIGPIPE raised by this write before unblocking.
            var zero = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&block, nil, &zero) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        while !pending.isEmpty {
            let count = pending.withUnsafeBytes { Glibc.write(standardInput, $0.baseAddress, $0.count) }
            if count > 0 { pending = pending.dropFirst(count); continue }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return false }
            if code == EPIPE { return true }
            throw .io(SystemError(code: code))
        }
        return true
    }
}
