/// Quoting table text (help, choices) for the generated scripts, so no help string can break them.
enum ShellQuoting {
    /// A POSIX single-quoted word, valid in bash and zsh.
    static func posix(_ text: String) -> String {
        "'" + text.replacingAll("'", with: #"'\''"#) + "'"
    }

    /// A fish single-quoted word: inside, only `\\` and `\'` are escapes.
    static func fish(_ text: String) -> String {
        "'" + text.replacingAll(#"\"#, with: #"\\"#).replacingAll("'", with: #"\'"#) + "'"
    }
}

extension String {
    /// Every occurrence of `target` replaced; Foundation-free.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
