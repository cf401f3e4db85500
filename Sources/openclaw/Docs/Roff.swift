/// Escaping for roff `man` pages: what looks like an option gets a real minus (`\-`), backslashes
/// and non-ASCII characters become escapes, and no line can start a request by accident.
enum Roff {
    /// Prose for a text line. `code` spans become bold literal text; a `-` that starts a word
    /// (an option, or stdin) becomes `\-`, hyphens inside words stay hyphens.
    static func text(_ prose: String) -> String {
        var out = ""
        var inCode = false
        var previous: Character = " "
        for character in markingVariables(prose) {
            if character == "`" {
                out += inCode ? "\\fR" : "\\fB\\%"
                inCode.toggle()
                previous = " "
                continue
            }
            if inCode {
                out += literal(character)
            } else if character == "-" && (previous == " " || previous == "(" || previous == "-" || previous == "'" || previous == "\"") {
                out += "\\-"
            } else {
                out += escape(character)
            }
            previous = character
        }
        if inCode { out += "\\fR" }
        return guardLine(out)
    }

    /// Puts backticks around environment variable names (`NO_COLOR`) outside code spans, so they
    /// are bold and never hyphenated.
    static func markingVariables(_ prose: String) -> String {
        var out = ""
        var inCode = false
        var characters = Substring(prose)
        var previous: Character = " "
        while let character = characters.first {
            if character == "`" { inCode.toggle() }
            let startsWord = !(previous.isLetter || previous.isNumber || previous == "_")
            if !inCode && startsWord && character.isUppercase {
                let name = characters.prefix { ($0.isASCII && ($0.isUppercase || $0.isNumber)) || $0 == "_" }
                let next = characters.dropFirst(name.count).first
                if name.contains("_") && !(next.map { $0.isLetter || $0.isNumber } ?? false) {
                    out += "`" + name + "`"
                    characters = characters.dropFirst(name.count)
                    previous = name.last ?? " "
                    continue
                }
            }
            out.append(character)
            previous = character
            characters = characters.dropFirst()
        }
        return out
    }

    /// Prose as text lines: one sentence a line, wrapped at spaces to stay under 80 bytes.
    static func lines(_ prose: String) -> [String] {
        sentences(prose).flatMap { wrap(text($0)) }.map(guardLine)
    }

    /// Breaks an escaped text line at spaces (roff fills them back); a word longer than the
    /// width stays whole.
    static func wrap(_ line: String, width: Int = 78) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty && current.utf8.count + 1 + word.utf8.count > width {
                lines.append(current)
                current = String(word)
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Literal text for commands and examples: every character comes out as typed when copied
    /// from the rendered page (ASCII minus, straight quotes, grave accent, tilde, caret).
    static func code(_ literalText: String) -> String {
        guardLine(literalText.map(literal).joined())
    }

    /// `\fB\-n\fR, \fB\-\-limit\fR \fIN\fR`
    static func flagSignature(_ flag: FlagSpec) -> String {
        var out = flag.short.map { "\\fB\\-\(literal($0))\\fR, " } ?? ""
        out += "\\fB\\-\\-" + flag.long.map(literal).joined() + "\\fR"
        if flag.takesValue { out += " \\fI" + flag.placeholder.map(literal).joined() + "\\fR" }
        return out
    }

    /// A synopsis fragment such as `METHOD [PARAMS]` or `bash|zsh|fish`: capitalised words are
    /// placeholders (italic), lower-case words are literal (bold), punctuation stays roman.
    static func synopsis(_ arguments: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            let isPlaceholder = word.allSatisfy { $0.isUppercase || $0 == "_" }
            out += (isPlaceholder ? "\\fI" : "\\fB") + word.map(literal).joined() + "\\fR"
            word = ""
        }
        for character in arguments {
            if character.isLetter || character == "_" { word.append(character) } else { flush(); out += literal(character) }
        }
        flush()
        return out
    }

    /// An argument of a macro line (`.SS`, `.TH`): quoted, with quotes inside escaped.
    static func macroArgument(_ text: String) -> String {
        "\"" + text.map { $0 == "\"" ? "\\(dq" : literal($0) }.joined() + "\""
    }

    /// Splits prose so each sentence starts a line, as roff expects for sentence spacing.
    static func sentences(_ prose: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var characters = Array(prose)[...]
        while let character = characters.first {
            characters = characters.dropFirst()
            current.append(character)
            if character == ".", characters.first == " ", characters.dropFirst().first != nil, !endsAbbreviation(current) {
                lines.append(current)
                current = ""
                characters = characters.dropFirst()
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `e.g.` and `i.e.`: a last word with a dot inside does not end a sentence.
    private static func endsAbbreviation(_ text: String) -> Bool {
        let word = text.split(separator: " ").last ?? ""
        return word.dropLast().contains(".")
    }

    private static func escape(_ character: Character) -> String {
        if character == "\\" { return "\\e" }
        if character.isASCII { return String(character) }
        return character.unicodeScalars.map { "\\[u" + hex($0.value) + "]" }.joined()
    }

    private static func literal(_ character: Character) -> String {
        switch character {
        case "-": return "\\-"
        case "'": return "\\(aq"
        case "`": return "\\(ga"
        case "~": return "\\(ti"
        case "^": return "\\(ha"
        default: return escape(character)
        }
    }

    /// A line starting with `.` or `'` would be a request; `\&` is a zero-width guard.
    private static func guardLine(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = ""
        var rest = value
        repeat { text = String(digits[Int(rest % 16)]) + text; rest /= 16 } while rest > 0
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
