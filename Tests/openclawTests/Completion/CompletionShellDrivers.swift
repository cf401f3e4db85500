import Foundation

/// Runs a committed completion script in a real shell and returns the candidates it offers for a
/// command line, as if TAB were pressed at its end.
enum CompletionShell: String, CaseIterable, CustomStringConvertible {
    /// bash with bash-completion loaded (`_init_completion`, `_filedir`).
    case bash
    /// bash alone: the script's own fallback word splitting.
    case bashWithoutBashCompletion
    /// zsh with compinit, driven through a pseudo-terminal.
    case zsh
    case fish

    var description: String { rawValue }

    func candidates(for line: String, path extraPath: URL? = nil) throws -> [String] {
        let home = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = DocsTestSupport.shellEnvironment(home: home, extraPath: extraPath)
        let completions = DocsTestSupport.repository.appendingPathComponent("completions")
        let result: DocsTestSupport.Result
        switch self {
        case .bash, .bashWithoutBashCompletion:
            let harness = home.appendingPathComponent("harness.bash")
            try DocsTestSupport.write(Self.bashHarness, to: harness)
            var loader = ""
            if self == .bash {
                loader = "/usr/share/bash-completion/bash_completion"
                guard FileManager.default.fileExists(atPath: loader) else {
                    throw SupportError("bash-completion is not installed (apt-get install bash-completion)")
                }
            }
            result = try DocsTestSupport.run(
                DocsTestSupport.program("bash"),
                ["--norc", "--noprofile", harness.path, loader, completions.appendingPathComponent("openclaw.bash").path, line],
                environment: environment, directory: home)
        case .zsh:
            let harness = home.appendingPathComponent("harness.zsh")
            try DocsTestSupport.write(Self.zshHarness, to: harness)
            result = try DocsTestSupport.run(
                DocsTestSupport.program("zsh"), ["-f", harness.path, completions.path, line],
                environment: environment, directory: home)
        case .fish:
            result = try DocsTestSupport.run(
                DocsTestSupport.program("fish"),
                ["--no-config", "-c", "source $argv[1]; and complete -C $argv[2]",
                 completions.appendingPathComponent("openclaw.fish").path, line],
                environment: environment, directory: home)
        }
        guard result.status == 0 else {
            throw SupportError("\(self) exited \(result.status) completing '\(line)': \(result.stderr)")
        }
        guard result.stderr.isEmpty else {
            throw SupportError("\(self) wrote to stderr completing '\(line)': \(result.stderr)")
        }
        let lines = result.lines.map { $0.split(separator: "\t", maxSplits: 1).first.map(String.init) ?? "" }
        return lines.filter { !$0.isEmpty }
    }

    /// The zsh line after one TAB, as the user sees it: complete-word runs in a real zle, then the
    /// buffer is printed and the shell ends.
    static func zshLineAfterOneTab(_ line: String) throws -> String {
        let home = try DocsTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let harness = home.appendingPathComponent("line.zsh")
        try DocsTestSupport.write(zshLineHarness, to: harness)
        let completions = DocsTestSupport.repository.appendingPathComponent("completions")
        let result = try DocsTestSupport.run(
            DocsTestSupport.program("zsh"), ["-f", harness.path, completions.path, line],
            environment: DocsTestSupport.shellEnvironment(home: home, extraPath: nil), directory: home)
        guard result.status == 0 else { throw SupportError("zsh exited \(result.status) completing '\(line)': \(result.stderr)") }
        return result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
    }

    static let zshLineHarness = zshPtyHarness(setup: #"""
        _tab_and_report() { zle complete-word; print -r -- \"<<LI\"\"NE>>\$BUFFER<<EN\"\"D>>\"; exit 0 }
        zle -N _tab_and_report
        bindkey '^I' _tab_and_report
        """#, report: #"""
        output=${output//$'\r'/}
        output=${output##*<<LINE>>}
        print -r -- ${output%%<<END>>*}
        """#)

    /// bash: set COMP_LINE/COMP_WORDS as readline would (split at blanks), call _openclaw, print COMPREPLY.
    static let bashHarness = #"""
        loader=$1 script=$2
        [[ -n $loader ]] && source "$loader"
        source "$script"
        COMP_LINE=$3
        COMP_POINT=${#COMP_LINE}
        read -ra COMP_WORDS <<<"$COMP_LINE"
        [[ $COMP_LINE == *[[:space:]] ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMPREPLY=()
        _openclaw openclaw "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        (( ${#COMPREPLY[@]} )) && printf '%s\n' "${COMPREPLY[@]}"
        exit 0
        """#

    /// zsh: an interactive `zsh -f` in a zpty with compinit and the completions directory on fpath;
    /// compadd is wrapped to print each match it adds; a comppostfunc ends the shell after one TAB.
    /// The markers are split in the typed text, so the terminal's echo of it never matches them.
    static let zshHarness = zshPtyHarness(setup: #"""
        zstyle ':completion:*' list-grouped false
        zstyle ':completion:*' insert-tab false
        compadd() {
          if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi
          local -a __hits
          builtin compadd -A __hits \"\$@\"
          local h; for h in \$__hits; do print -r -- \"<<CANDI\"\"DATE>>\$h\"; done
          builtin compadd \"\$@\"
        }
        _capture_end() { print -r -- '<<EN''D>>'; exit 0 }
        comppostfuncs=(_capture_end)
        bindkey '^I' complete-word
        """#, report: #"""
        local row
        for row in ${(f)output//$'\r'/}; do
          [[ $row == *'<<CANDIDATE>>'* ]] && print -r -- ${row##*<<CANDIDATE>>}
        done
        """#)

    /// An interactive `zsh -f` in a zpty with compinit and the completions directory ($1) on fpath:
    /// `setup` runs inside it (double-quoted: escape `$` and `"`), then the line ($2) is typed with a
    /// TAB, its output read up to the `<<END>>` marker `setup` prints, and `report` prints from `output`.
    static func zshPtyHarness(setup: String, report: String) -> String {
        #"""
        zmodload zsh/zpty || exit 3
        zpty capture zsh -f -i
        zpty -w capture "fpath=(${(q)1} \$fpath); PROMPT=''; RPROMPT=''
        autoload -Uz compinit; compinit -u -D

        """# + setup + #"""

        print -r -- '<<READ''Y>>'"
        while zpty -r capture chunk; do [[ $chunk == *'<<READY>>'* ]] && break; done
        zpty -w -n capture "$2"$'\t'
        output=''
        while zpty -r capture chunk; do output+=$chunk; [[ $chunk == *'<<END>>'* ]] && break; done
        zpty -d capture

        """# + report + "\nexit 0\n"
    }
}
