// Target 4: the command-line parser. Arguments are the input split at NUL bytes;
// parsing returns an invocation or throws a UsageError, never traps.
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawState
@_spi(Engine) @testable import ClawSession
@testable import openclaw

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    do throws(UsageError) {
        let invocation = try ArgumentParser.parse(arguments)
        for (flag, values) in invocation.values {
            guard let spec = CommandTable.flags(for: invocation.command).first(where: { $0.long == flag }) else {
                fuzzFail("value recorded for --\(flag), which \(invocation.command.name) does not take")
            }
            for value in values {
                // What validate returned must validate again unchanged.
                do throws(UsageError) {
                    if try ArgumentParser.validate(value, for: spec) != value { fuzzFail("validation is not idempotent for --\(flag)") }
                } catch { fuzzFail("a validated value fails validation: --\(flag) \(value)") }
            }
        }
        _ = invocation.options.history.limit
    } catch {
        if error.message.isEmpty { fuzzFail("empty usage error") }
    }
    return 0
}
