/// `joined(separator:)` for the start-up path of a one-shot command, specialised by hand: the
/// standard library's generic one (and `append(contentsOf:)` with a substring) looks its associated
/// types up at run time on first use, about 0.1 M instructions each (bench/README.md).
@_spi(Engine) public enum StringJoin {
    @_spi(Engine) public static func join(_ parts: [String], separator: String) -> String {
        var joined = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { joined += separator }
            joined += part
        }
        return joined
    }
}
