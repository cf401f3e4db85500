import Foundation
import Testing

/// Whether the code under test runs under CPU emulation: `OPENCLAW_TEST_EMULATION=qemu` when the
/// binaries are another architecture's, run through qemu-user (`make test-arm64`). A few facts of a
/// native kernel do not hold there; the tests that rely on them are skipped by name, with the reason,
/// and only there: unset, every test runs.
enum Emulation {
    static let variable = "OPENCLAW_TEST_EMULATION"

    static let isQEMU = ProcessInfo.processInfo.environment[variable] == "qemu"
}

extension Trait where Self == ConditionTrait {
    /// Skips the test under qemu-user emulation, saying why.
    static func notUnderQEMU(_ reason: Comment) -> Self { .disabled(if: Emulation.isQEMU, reason) }
}
