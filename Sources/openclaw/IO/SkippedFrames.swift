@_spi(Engine) import ClawProtocol

/// Frames skipped for forward compatibility: one stderr note per kind when first seen, and a
/// count at exit, so a chatty newer gateway neither floods stderr nor goes unnoticed.
final class SkippedFrames {
    private(set) var counts: [SkippedFrame: Int] = [:]
    private let console: Console

    init(console: Console) { self.console = console }

    func record(_ kind: SkippedFrame) {
        counts[kind, default: 0] += 1
        if counts[kind] == 1 {
            console.note("skipped a frame this client does not understand (\(Self.name(kind))); later ones are counted; --strict makes this an error")
        }
    }

    /// The closing count, e.g. `skipped 3 frame(s) this client does not understand: 2 not JSON, 1 of an unknown type`.
    func summary() -> String? {
        let total = counts.values.reduce(0, +)
        guard total > 1 || counts.count > 1 else { return nil }  // a single skip was already said in full
        let parts = SkippedFrame.allCases.compactMap { kind in counts[kind].map { "\($0) \(Self.name(kind))" } }
        return "skipped \(total) frame(s) this client does not understand: \(parts.joined(separator: ", "))"
    }

    static func name(_ kind: SkippedFrame) -> String {
        switch kind {
        case .notJSON: return "not JSON"
        case .notObject: return "JSON but not an object"
        case .unknownType: return "of an unknown type"
        case .unexpectedResponse: return "a res to no request of ours"
        }
    }
}
