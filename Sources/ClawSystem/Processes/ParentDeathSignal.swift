/// Linux's parent-death signal (`prctl(PR_SET_PDEATHSIG)`) for a child this process starts, so the
/// child ends with its parent however the parent ends, SIGKILL included. `posix_spawn` cannot set
/// it, so the child is started through util-linux `setpriv --pdeathsig`, which every current
/// distribution ships: it sets the signal on itself and then executes the program, which keeps it.
///
/// The kernel sends the signal when the *thread* that started the child ends, not the process: a
/// program that starts such a child from a thread that ends early loses it at that moment. openclaw
/// starts its children from its one (main) thread.
@_spi(Engine) public enum ParentDeathSignal {
    static let setprivLocations = ["/usr/bin/setpriv", "/bin/setpriv"]

    /// A trusted `setpriv` that knows `--pdeathsig` (util-linux 2.33 or later), asked once; nil without one.
    @_spi(Engine) public static let setpriv: String? = {
        guard let path = SystemProgram.locate(in: setprivLocations) else { return nil }
        // Older setpriv refuses the option: try it once on a program that does nothing.
        guard let noOp = SystemProgram.locate(in: ["/usr/bin/true", "/bin/true"]) else { return nil }
        var probe = Subprocess.Configuration(executable: path, arguments: ["--pdeathsig", "TERM", "--", noOp])
        probe.newProcessGroup = false
        guard let child = try? Subprocess.spawn(probe) else { return nil }
        let end = child.wait(until: .after(seconds: 5)) ?? child.terminate(grace: 0)
        return end == .exited(0) ? path : nil
    }()

    /// `executable` and `arguments` to run instead, so that the child gets SIGTERM when the calling
    /// thread ends; nil without a usable `setpriv`.
    static func wrap(executable: String, arguments: [String]) -> (String, [String])? {
        guard let setpriv else { return nil }
        return (setpriv, ["--pdeathsig", "TERM", "--", executable] + arguments)
    }
}
