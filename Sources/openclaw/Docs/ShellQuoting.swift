@_spi(Engine) import ClawSystem
/// Quoting table text (help, choices) for the generated scripts, so no help string can break them.
enum ShellQuoting {
    /// A POSIX single-quoted word, valid in bash and zsh.
    static func posix(_ text: String) -> String {
        "'" + text.replacingText("'", with: #"'\''"#) + "'"
    }

    /// A fish single-quoted word: inside, only `\\` and `\'` are escapes.
    static func fish(_ text: String) -> String {
        "'" + text.replacingText(#"\"#, with: #"\\"#).replacingText("'", with: #"\'"#) + "'"
    }
}

