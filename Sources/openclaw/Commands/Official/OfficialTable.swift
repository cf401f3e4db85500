/// The official CLI's bordered text table (openclaw/openclaw `packages/terminal-core/src/table.ts`
/// `renderTable`, unicode border): each column as wide as its widest cell plus one space of padding
/// each side; when the table is wider than `width`, flex columns shrink first (to their header), then
/// the others; when narrower, flex columns grow to fill it; a cell too long for its column wraps at a
/// space, `/`, `-`, `_` or `.` when it can. Colour is applied after the layout, so widths are those
/// of the plain text.
struct OfficialTable {
    struct Column {
        let key: String
        let header: String
        var flex = false
    }

    let columns: [Column]
    let rows: [[String: String]]
    let width: Int
    /// Colours a cell's visible text: its row (nil for the header), its column's key (nil for the
    /// header), one line of it.
    var paint: (_ row: Int?, _ key: String?, _ text: String) -> String = { $2 }

    private static let padding = 1

    func render() -> String {
        var widths = columns.map { column in
            let cells = rows.map { DisplayWidth.of($0[column.key] ?? "") }
            return max(3, max(DisplayWidth.of(column.header), cells.max() ?? 0) + Self.padding * 2)
        }
        let minimums = columns.map { max(3, DisplayWidth.of($0.header) + Self.padding * 2) }
        var over = widths.reduce(0, +) + columns.count + 1 - width
        if over > 0 {
            func shrink(_ order: [Int]) {
                while over > 0 {
                    var progressed = false
                    for i in order where widths[i] > minimums[i] {
                        widths[i] -= 1
                        over -= 1
                        progressed = true
                        if over <= 0 { break }
                    }
                    if !progressed { break }
                }
            }
            let byWidth = { (flex: Bool) in
                columns.indices.filter { columns[$0].flex == flex }.sorted { widths[$0] > widths[$1] }
            }
            shrink(byWidth(true))
            shrink(byWidth(false))
        }
        var extra = width - (widths.reduce(0, +) + columns.count + 1)
        let flexible = columns.indices.filter { columns[$0].flex }
        while extra > 0 && !flexible.isEmpty {
            for i in flexible where extra > 0 {
                widths[i] += 1
                extra -= 1
            }
        }

        func line(_ left: String, _ middle: String, _ right: String) -> String {
            left + widths.map { String(repeating: "─", count: $0) }.joined(separator: middle) + right
        }
        let pad = String(repeating: " ", count: Self.padding)
        func render(_ cells: [String], row: Int?) -> [String] {
            let wrapped = cells.enumerated().map { i, cell in Self.wrap(cell, width: max(1, widths[i] - Self.padding * 2)) }
            let height = wrapped.map(\.count).max() ?? 1
            return (0..<height).map { li in
                let parts = wrapped.enumerated().map { i, lines -> String in
                    let content = max(1, widths[i] - Self.padding * 2)
                    let raw = li < lines.count ? DisplayWidth.truncate(lines[li], to: content) : ""
                    let filler = String(repeating: " ", count: max(0, content - DisplayWidth.of(raw)))
                    let shown = raw.isEmpty ? raw : paint(row, row == nil ? nil : columns[i].key, raw)
                    return pad + shown + filler + pad
                }
                return "│" + parts.joined(separator: "│") + "│"
            }
        }
        var lines = [line("┌", "┬", "┐")]
        lines += render(columns.map(\.header), row: nil)
        lines.append(line("├", "┼", "┤"))
        for (index, row) in rows.enumerated() { lines += render(columns.map { row[$0.key] ?? "" }, row: index) }
        lines.append(line("└", "┴", "┘"))
        return lines.joined(separator: "\n")
    }

    /// `wrapLine` for plain text: greedy by grapheme, breaking after the last space, `/`, `-`, `_` or
    /// `.` of the line when one is in it; trailing spaces dropped, leading ones of a continuation too.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var buffer: [Character] = []
        var visible = 0
        var lastBreak: Int? = nil
        func push(_ characters: ArraySlice<Character>) {
            var line = String(characters)
            while line.last?.isWhitespace == true { line.removeLast() }
            if DisplayWidth.of(line) > 0 { lines.append(line) }
        }
        func flush(at breakAt: Int?) {
            guard !buffer.isEmpty else { return }
            guard let cut = breakAt, cut > 0 else {
                push(buffer[...])
                buffer = []
                visible = 0
                lastBreak = nil
                return
            }
            push(buffer[..<cut])
            var rest = Array(buffer[cut...])
            while let first = rest.first, first == " " || first == "\t" { rest.removeFirst() }
            buffer = rest
            visible = rest.reduce(0) { $0 + DisplayWidth.of($1) }
            lastBreak = nil
        }
        for character in text {
            if character == "\n" || character == "\r" || character == "\r\n" {
                flush(at: buffer.count)
                continue
            }
            let w = DisplayWidth.of(character)
            if visible + w > width && visible > 0 { flush(at: lastBreak) }
            if visible == 0 && (character == " " || character == "\t") { continue }
            buffer.append(character)
            visible += w
            if [" ", "\t", "/", "-", "_", "."].contains(character) { lastBreak = buffer.count }
        }
        flush(at: buffer.count)
        return lines.isEmpty ? [""] : lines
    }
}

/// Terminal columns a text takes: East Asian wide and fullwidth characters and emoji two, combining
/// marks and other zero-width scalars none, anything else one; counted per grapheme cluster.
enum DisplayWidth {
    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) || scalars.contains("\u{FE0F}") && first.properties.isEmoji {
            return 2
        }
        if isZeroWidth(first) { return 0 }
        return isWide(first.value) ? 2 : 1
    }

    /// The longest prefix of `text` at most `width` columns wide.
    static func truncate(_ text: String, to width: Int) -> String {
        var out = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width { break }
            out.append(character)
            used += w
        }
        return out
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return scalar.value == 0x200B
        }
    }

    private static func isWide(_ v: UInt32) -> Bool {
        (v >= 0x1100 && v <= 0x115F) || (v >= 0x2E80 && v <= 0x303E) || (v >= 0x3041 && v <= 0x33FF)
            || (v >= 0x3400 && v <= 0x4DBF) || (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0xA000 && v <= 0xA4CF)
            || (v >= 0xAC00 && v <= 0xD7A3) || (v >= 0xF900 && v <= 0xFAFF) || (v >= 0xFE30 && v <= 0xFE4F)
            || (v >= 0xFF00 && v <= 0xFF60) || (v >= 0xFFE0 && v <= 0xFFE6) || (v >= 0x1F300 && v <= 0x1F64F)
            || (v >= 0x1F900 && v <= 0x1F9FF) || (v >= 0x20000 && v <= 0x3FFFD)
    }
}
