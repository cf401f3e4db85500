import Foundation
import Testing

/// Whether the code under test runs under CPU emulation: `OPENCLAW_TEST_EMULATION=qemu` when the
/// binaries are another architecture's, run through qemu-user (`make test-arm64`). A few facts of a
/// native kernel do not hold there; the tests that rely on them are skipped by name, with the reason,
/// and only there: unset, every test runs.
enum Emulation {
    static let variable = "OPENCLAW_TEST_EMULATION"

    static let isQEMU = ProcessInfo.processInfo.environment[variable] == "qemu"

    /// A child's environment: under QEMU with glibc's malloc told to keep no top padding. qemu-aarch64
    /// (10.0) now and then breaks the brk heap of a static PIE (glibc's `sysmalloc` assertion, about one
    /// wss:// run in ten); never with `top_pad=0`, and never natively. Unchanged when native.
    static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        guard isQEMU, environment["GLIBC_TUNABLES"] == nil else { return environment }
        return environment.merging(["GLIBC_TUNABLES": "glibc.malloc.top_pad=0"]) { ours, _ in ours }
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test under qemu-user emulation, saying why.
    static func notUnderQEMU(_ reason: Comment) -> Self { .disabled(if: Emulation.isQEMU, reason) }
}
