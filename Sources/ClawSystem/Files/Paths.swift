/// Path text operations in the style of Node's `path.posix` (the official CLI resolves paths with it).
@_spi(Engine) public enum Paths {
    @_spi(Engine) public static func join(_ base: String, _ components: String...) -> String {
        var out = base
        for component in components {
            if component.hasPrefix("/") { out = component; continue }
            if out.isEmpty || out.hasSuffix("/") { out += component } else { out += "/" + component }
        }
        return out
    }

    /// Everything before the last component (`/` for a top-level entry).
    @_spi(Engine) public static func parent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// The last component (`path.basename`): trailing slashes ignored.
    @_spi(Engine) public static func lastComponent(_ path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.last.map(String.init) ?? path
    }

    /// Lexically normalised: no `.`, `..`, doubled or trailing slashes (`path.normalize`).
    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if let last = parts.last, last != ".." { parts.removeLast(); continue }
                if absolute { continue }
            }
            parts.append(part)
        }
        let body = StringJoin.join(parts.map(String.init), separator: "/")
        if absolute { return "/" + body }
        return body.isEmpty ? "." : body
    }

    /// Absolute and normalised against `currentDirectory` (`path.resolve`).
    @_spi(Engine) public static func resolve(_ path: String, currentDirectory: String?) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        return normalize(join(currentDirectory ?? "/", path))
    }
}
