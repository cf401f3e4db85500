import Testing
@_spi(Engine) @testable import ClawJSON

/// `FrameShapes`: a frame laid out like an earlier one is read through that layout, and always exactly
/// as the fast scanner reads it.
@Suite struct FrameShapeTests {
    static let delta = #"{"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":1,"state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"Hel"}],"timestamp":1795953465765},"deltaText":"Hel"},"seq":1}"#
    static let nextDelta = #"{"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":22,"state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"Hello, w\u00f6rld \"x\""}],"timestamp":1795953465999},"deltaText":"lo, wörld"},"seq":-3}"#

    /// What the fast scanner reads from `text`, or nil when it does not take it.
    static func fast(_ text: String) -> ScannedFrame? {
        Array(text.utf8).withUnsafeBufferPointer { FastFrameScanner.scan($0.baseAddress!, count: $0.count, maxDepth: 256) }
    }

    /// What `shapes` reads from `text` (nil: not taken), and whether a layout took it.
    static func throughShapes(_ shapes: FrameShapes, _ text: String) -> (ScannedFrame?, viaShape: Bool) {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var f = ScannedFrame()
            let before = shapes.hits
            let taken = shapes.scan(buffer.baseAddress!, count: buffer.count, maxDepth: 256, into: &f, knownFrom: -1, knownTo: -1)
            return (taken ? f : nil, shapes.hits > before)
        }
    }

    @Test func aFrameOfAKnownLayoutIsReadThroughItExactlyAsTheScannerReadsIt() throws {
        let shapes = FrameShapes()
        let first = Self.throughShapes(shapes, Self.delta)
        #expect(!first.viaShape)
        #expect(first.0 == Self.fast(Self.delta))
        let next = Self.throughShapes(shapes, Self.nextDelta)
        #expect(next.viaShape)
        let read = try #require(next.0)
        #expect(read == Self.fast(Self.nextDelta))
        #expect(read.seq == -3 && read.runSeq == 22)
        #expect(read.runId?.end == read.runId.map { $0.start + 2 })
    }

    @Test func eachOfTheRoutingFieldsComesFromItsValue() throws {
        let shapes = FrameShapes()
        let response = #"{"type":"res","id":"7","ok":true,"payload":{"runId":"a","sessionKey":"s","state":"final","seq":5}}"#
        let again = #"{"type":"res","id":"812","ok":true,"payload":{"runId":"bb","sessionKey":"agent:x","state":"error","seq":6}}"#
        let request = #"{"type":"req","id":"1","method":"connect","params":{"seq":1}}"#
        let requestAgain = #"{"type":"req","id":"2","method":"health","params":{"seq":2}}"#
        for text in [response, request] { _ = Self.throughShapes(shapes, text) }
        for text in [again, requestAgain] {
            let (read, viaShape) = Self.throughShapes(shapes, text)
            #expect(viaShape)
            #expect(read == Self.fast(text))
        }
    }

    /// A value of another kind, another member name, a literal changed, a longer array: not the layout,
    /// so the scanner reads the frame; invalid values are refused as the scanner refuses them.
    @Test func anythingButTheValuesOfTheSameKindsLeavesTheLayout() {
        let layouts = [#"{"type":"event","event":"tick","seq":1,"payload":{"ok":true,"list":[1],"n":2.5}}"#]
        let others = [
            #"{"type":"event","event":"tick","seq":"1","payload":{"ok":true,"list":[1],"n":2.5}}"#,
            #"{"type":"event","event":"tick","seq":1,"payload":{"ok":false,"list":[1],"n":2.5}}"#,
            #"{"type":"event","event":"tick","seq":1,"payload":{"ok":true,"list":[1,2],"n":2.5}}"#,
            #"{"type":"event","event":"tick","seq":1,"payload":{"ok":true,"lisT":[1],"n":2.5}}"#,
            #"{"type":"event","event":"tick","seq":1,"payload":{"ok":true,"list":[1],"token":2.5}}"#,
        ]
        let invalid = [
            #"{"type":"event","event":"tick","seq":01,"payload":{"ok":true,"list":[1],"n":2.5}}"#,
            #"{"type":"event","event":"ti\ck","seq":1,"payload":{"ok":true,"list":[1],"n":2.5}}"#,
            #"{"type":"event","event":"tick","seq":1,"payload":{"ok":true,"list":[1],"n":2.}}"#,
            #"{"type":"event","event":"tick","seq":1,"payload":{"ok":true,"list":[1],"n":2.5}}x"#,
            #"{"type":"event","event":"tick","seq":1,"payload":{"ok":true,"list":[1],"n":2.5}"#,
        ]
        for other in others + invalid {
            let shapes = FrameShapes()
            for layout in layouts { _ = Self.throughShapes(shapes, layout) }
            let (read, viaShape) = Self.throughShapes(shapes, other)
            #expect(!viaShape, "\(other)")
            #expect(read == Self.fast(other), "\(other)")
        }
        let secret = Self.fast(others[4])
        #expect(secret?.hasSecretKey == true)
    }

    /// The first top-level `seq` is the frame's whatever its kind, and a number inside a container
    /// after a `seq` name is not the member's value.
    @Test func onlyTheValueOfTheRightSeqFeedsTheSequenceNumbers() {
        let frames = [
            #"{"seq":[1,2],"type":"event","event":"e","payload":{"seq":{"seq":3},"seq":4}}"#,
            #"{"seq":"x","seq":5,"type":"event","event":"e","payload":{"seq":"y","seq":6}}"#,
        ]
        for frame in frames {
            let shapes = FrameShapes()
            _ = Self.throughShapes(shapes, frame)
            let (read, viaShape) = Self.throughShapes(shapes, frame)
            #expect(viaShape, "\(frame)")
            #expect(read == Self.fast(frame), "\(frame)")
        }
    }

    /// Up to four layouts are kept, and alternating ones are each read through their own; a fifth
    /// replaces the oldest.
    @Test func interleavedLayoutsAreEachKept() {
        let shapes = FrameShapes()
        let a = #"{"type":"event","event":"chat","payload":{"state":"delta"},"seq":1}"#
        let b = #"{"type":"event","event":"agent","payload":{"stream":"assistant","data":{"delta":"x"}},"seq":2}"#
        _ = Self.throughShapes(shapes, a)
        _ = Self.throughShapes(shapes, b)
        for _ in 0..<3 {
            #expect(Self.throughShapes(shapes, a).viaShape)
            #expect(Self.throughShapes(shapes, b).viaShape)
        }
        let more = (1...3).map { #"{"type":"event","event":"e\#($0)","payload":{"n\#($0)":1}}"# }
        for frame in more {
            #expect(!Self.throughShapes(shapes, frame).viaShape)  // a miss: learnt
            #expect(Self.throughShapes(shapes, frame).viaShape)
        }
        // The third of those took the place of the oldest, `a`.
        #expect(Self.throughShapes(shapes, b).viaShape)
        #expect(!Self.throughShapes(shapes, a).viaShape)
    }

    /// A stream of ever-different frames learns a layout only at the 1st, 2nd, 4th, 8th, … miss in a row.
    @Test func everDifferentFramesAreLearntOnlyNowAndThen() {
        let shapes = FrameShapes()
        for k in 0..<64 {
            let (read, viaShape) = Self.throughShapes(shapes, #"{"type":"event","event":"e","payload":{"k\#(k)":1}}"#)
            #expect(read != nil && !viaShape)
        }
        #expect(shapes.learnt == 7)  // misses 1, 2, 4, 8, 16, 32 and 64
        #expect(shapes.hits == 0)
    }
}
