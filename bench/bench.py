#!/usr/bin/env python3
"""`make bench`: openclaw's figures, each next to its floor measured in the same run.

0. start-up: CPU time (user + system, i.e. task-clock) and page faults of one-shot commands, medians of
   STARTUP_RUNS runs, beside /bin/true (the floor of any process) and the .deb's binary (system OpenSSL);
1. one-shot `openclaw history`: wall time exec→exit, median and p95 (floor: `openclaw version`, run
   alternately with it);
2. `watch` throughput for a 1M-event blast of ~300-byte chat deltas, into /dev/null and through a
   pipe into `wc -l` (floor: a C byte-for-byte passthrough of the same socket stream), each the
   median of three runs;
3. peak RSS of `history` of 1000 × 4 KB messages and of the 1M-event `watch`;
4. instructions (valgrind --tool=callgrind, stable on a busy machine): per `version`, per `history`, and
   per watch event (the difference of two runs of different lengths, so start-up cancels out);
5. the same history and watch by a plain Python `websockets` client (bench/pyclient.py; installed with pip
   when missing), side by side;
5b. one-shot `history` (CPU time) and `watch` (events/s) beside a Node client on `ws`, the library the
   official CLI uses (bench/nodeclient.js, on Debian's node-ws), run alternately, medians of NODE_RUNS;
6. a library user built in debug (bench/debug-reader, built here; SwiftPM compiles the library unoptimised
   too): CPU per update of a ~2 MB reply streamed at 20 ms per update, and whether it kept up.
Release binaries must already be built (the Makefile target does it). `bench.py --debug-reader` runs only 6
(it needs only the release simulator), `bench.py --node` only 5b.
"""
import os, platform, re, shutil, sqlite3, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN_DIR", os.path.join(ROOT, ".build", "release"))
OPENCLAW = os.path.join(BIN, "openclaw")
SIM = os.path.join(BIN, "openclaw-gateway-sim")
TOKEN = "bench-token"
RUNS = int(os.environ.get("BENCH_RUNS", "100"))
EVENTS = int(os.environ.get("BENCH_EVENTS", "1000000"))
PY_RUNS = int(os.environ.get("BENCH_PY_RUNS", "20"))
STARTUP_RUNS = int(os.environ.get("BENCH_STARTUP_RUNS", "41"))
DEB_OPENCLAW = os.path.join(ROOT, ".build-deb", "release", "openclaw")
THROUGHPUT_RUNS = int(os.environ.get("BENCH_THROUGHPUT_RUNS", "3"))
PY_EVENTS = int(os.environ.get("BENCH_PY_EVENTS", "200000"))
PYCLIENT = os.path.join(ROOT, "bench", "pyclient.py")
NODECLIENT = os.path.join(ROOT, "bench", "nodeclient.js")
NODE_PATH = "/usr/share/nodejs"  # Debian's node-ws
NODE_RUNS = int(os.environ.get("BENCH_NODE_RUNS", "5"))
NODE_EVENTS = int(os.environ.get("BENCH_NODE_EVENTS", "1000000"))
DEBUG_READER_DIR = os.path.join(ROOT, "bench", "debug-reader")
# lorem:330000 is 2.1 MB of text; 300 words a delta make it 1,100 updates, one each DEBUG_READER_MS.
DEBUG_READER_WORDS = int(os.environ.get("BENCH_DEBUG_READER_WORDS", "330000"))
DEBUG_READER_MS = 20


class Simulator:
    def __init__(self, *args):
        self.proc = subprocess.Popen([SIM, "--port", "0", "--token", TOKEN, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        m = re.match(r"listening on (wss?://127\.0\.0\.1:(\d+))", line)
        if not m:
            sys.exit(f"bench: the simulator did not start: {line!r}")
        self.url, self.port = m.group(1), int(m.group(2))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()


def run_timed(argv, env, stdout=subprocess.DEVNULL, shell=False):
    """Runs a command; returns (seconds, peak RSS in KiB of the process tree's largest child)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=stdout, stderr=subprocess.PIPE, shell=shell)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench: {argv} exited {code}: {err.strip()}")
    return elapsed, usage.ru_maxrss


def startup_cost(argv, env):
    """Median CPU time (ms, user + system) and median page faults (minor + major) of STARTUP_RUNS runs."""
    cpu, faults = [], []
    for _ in range(STARTUP_RUNS):
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        err = proc.stderr.read().decode(errors="replace")
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench: {argv} failed: {err.strip()}")
        cpu.append((usage.ru_utime + usage.ru_stime) * 1000)
        faults.append(usage.ru_minflt + usage.ru_majflt)
    return statistics.median(cpu), int(statistics.median(faults))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def ms(seconds):
    return f"{seconds * 1000:.2f} ms"


def debug_reader(env, results):
    """6. A debug build of a library user reading a long streamed reply (see bench/debug-reader)."""
    print(f"\n6. a debug-built library user: lorem:{DEBUG_READER_WORDS} in 300-word deltas, one each {DEBUG_READER_MS} ms")
    scratch = os.path.join(ROOT, ".build", "debug-reader")  # inside the package's own .build: `make clean` goes
    build = subprocess.run(["nice", "-n", "10", "swift", "build", "--package-path", DEBUG_READER_DIR,
                            "--scratch-path", scratch], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if build.returncode != 0:
        sys.exit(f"bench: building bench/debug-reader failed:\n{build.stdout[-2000:]}")
    reader = os.path.join(scratch, "debug", "debug-reader")
    with Simulator("--reply", f"lorem:{DEBUG_READER_WORDS}", "--delta-words", "300",
                   "--delta-ms", str(DEBUG_READER_MS)) as sim:
        out = subprocess.run([reader], env=dict(env, OPENCLAW_GATEWAY_URL=sim.url), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
    m = re.search(r"updates (\d+) bytes (\d+) cpu ([\d.]+) last100 ([\d.]+) wall ([\d.]+) outcome (.*)", out)
    if not m:
        sys.exit(f"bench: debug-reader printed {out!r}")
    updates, size, cpu, last100, wall, outcome = int(m[1]), int(m[2]), float(m[3]), float(m[4]), float(m[5]), m[6]
    kept_up = outcome == "ok"
    print(f"   {updates:,} updates, reply {size / 1e6:.2f} MB, {'kept up' if kept_up else 'fell behind: ' + outcome}")
    print(f"   CPU {cpu:.2f} s in {wall:.1f} s: {cpu / max(updates, 1) * 1000:.2f} ms per update on average, "
          f"{last100 * 10:.2f} ms over the last 100 (the reply near its full size)")
    results.append((f"a debug library user keeps up with a {size / 1e6:.1f} MB reply at {DEBUG_READER_MS} ms per update",
                    kept_up))


def fresh_environment():
    """A new state directory, and the environment every run gets: nothing of this machine's own."""
    state = tempfile.mkdtemp(prefix="openclaw-bench-")
    return state, {"HOME": state, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "OPENCLAW_STATE_DIR": state,
                   "OPENCLAW_GATEWAY_TOKEN": TOKEN, "LANG": "C.UTF-8"}


def print_targets(results):
    for name, ok in results:
        print(f"   {'met ' if ok else 'MISSED'}  {name}")


def main():
    # One section alone: it needs only the release simulator (and openclaw for --node).
    alone = {"--node": node_side_by_side, "--debug-reader": debug_reader}.get(" ".join(sys.argv[1:]))
    if alone:
        for path in (SIM, OPENCLAW) if alone is node_side_by_side else (SIM,):
            if not os.access(path, os.X_OK):
                sys.exit(f"bench: {path} is missing; run `make release` first")
        state, env = fresh_environment()
        results = []
        try:
            alone(env, results)
        finally:
            shutil.rmtree(state, ignore_errors=True)
        print_targets(results)
        return
    for path in (OPENCLAW, SIM):
        if not os.access(path, os.X_OK):
            sys.exit(f"bench: {path} is missing; run `make release` first")
    state, env = fresh_environment()
    results = []
    try:
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
              f"date: {time.strftime('%Y-%m-%d')}")

        # 0. Start-up cost in CPU time and page faults (the kernel's own accounting, from wait4).
        print(f"\n0. start-up, median of {STARTUP_RUNS} runs: CPU time (user + system) and page faults")
        with Simulator("--history-fixture", "20:200") as sim:
            env0 = dict(env, OPENCLAW_GATEWAY_URL=sim.url)
            db_state = tempfile.mkdtemp(prefix="openclaw-bench-db-")
            make_state_database(db_state)
            env_db = dict(env0, HOME=db_state, OPENCLAW_STATE_DIR=db_state)
            # No state database: an older install's identity/device.json (a fresh machine gets a database).
            legacy_state = tempfile.mkdtemp(prefix="openclaw-bench-legacy-")
            legacy = make_legacy_identity(legacy_state)
            env_legacy = dict(env0, HOME=legacy_state, OPENCLAW_STATE_DIR=legacy_state)
            run_timed([OPENCLAW, "history"], env0)  # each creates its device identity once
            run_timed([OPENCLAW, "history"], env_db)
            history_rows = [("openclaw history (ws://, no database)", [OPENCLAW, "history"], env_legacy, 3.5, 220)] \
                if legacy else [("openclaw history (ws://)", [OPENCLAW, "history"], env0, 3.5, 220)]
            rows = [("/bin/true (floor)", ["/bin/true"], env0, None, None),
                    ("openclaw version", [OPENCLAW, "version"], env0, 2.0, 150),
                    *history_rows,
                    ("openclaw history (fresh machine: database)", [OPENCLAW, "history"], env0, None, None),
                    ("openclaw history (state database)", [OPENCLAW, "history"], env_db, 4.5, None),
                    ("openclaw send --no-wait", [OPENCLAW, "send", "--no-wait", "hi"], env0, None, None)]
            if os.access(DEB_OPENCLAW, os.X_OK):
                rows += [(".deb binary: version", [DEB_OPENCLAW, "version"], env0, None, None),
                         (".deb binary: history (ws://)", [DEB_OPENCLAW, "history"], env_legacy if legacy else env0, None, None)]
            for name, argv, env_, cpu_target, fault_target in rows:
                cpu, faults = startup_cost(argv, env_)
                targets = " ".join(t for t in (cpu_target and f"<= {cpu_target} ms",
                                               fault_target and f"<= {fault_target} faults") if t)
                print(f"   {name:36s} {cpu:6.2f} ms  {faults:5d} page faults" + (f"  (target {targets})" if targets else ""))
                if cpu_target:
                    results.append((f"{name}: CPU <= {cpu_target} ms", cpu <= cpu_target))
                if fault_target:
                    results.append((f"{name}: page faults <= {fault_target}", faults <= fault_target))
            if not os.access(DEB_OPENCLAW, os.X_OK):
                print("   (.deb binary not built: `make deb-build` builds it)")
            shutil.rmtree(db_state, ignore_errors=True)
            shutil.rmtree(legacy_state, ignore_errors=True)

        # 0b. wss:// with full verification against a system-sized store, beside ws:// and a pin.
        print(f"\n0b. history over wss:// (a root -> intermediate -> leaf chain), median of {STARTUP_RUNS} runs: CPU time")
        tls_cost(env, results)

        # 1. One-shot history against its floor.
        with Simulator("--history-fixture", "20:200") as sim:
            env1 = dict(env, OPENCLAW_GATEWAY_URL=sim.url)
            run_timed([OPENCLAW, "history"], env1)  # creates the device identity once
            # Interleaved, so that both see the same machine (a shared machine's load drifts between blocks).
            floor, history = [], []
            for _ in range(RUNS):
                floor.append(run_timed([OPENCLAW, "version"], env1)[0])
                history.append(run_timed([OPENCLAW, "history"], env1)[0])
        ratio = statistics.median(history) / statistics.median(floor)
        print(f"\n1. one-shot, {RUNS} runs each (wall time exec to exit)")
        print(f"   openclaw version (floor): median {ms(statistics.median(floor))}, p95 {ms(percentile(floor, 95))}")
        print(f"   openclaw history:         median {ms(statistics.median(history))}, p95 {ms(percentile(history, 95))}"
              f"  ({ratio:.2f}x the floor; target <= 1.6x)")
        results.append(("history median within 1.6x of version", ratio <= 1.6))

        # 2. watch throughput.
        print(f"\n2. watch throughput, {EVENTS:,} chat delta events of ~300 bytes (median of {THROUGHPUT_RUNS} runs)")
        out_file = os.path.join(state, "events.ndjson")
        with Simulator("--blast", str(EVENTS), "--blast-bytes", "300") as sim:
            env2 = dict(env, OPENCLAW_GATEWAY_URL=sim.url)
            with open(out_file, "wb") as f:
                run_timed([OPENCLAW, "watch", "--count", str(EVENTS)], env2, stdout=f)
        total_bytes = os.path.getsize(out_file)
        os.remove(out_file)
        mb = total_bytes / 1e6
        # Each figure is the median of THROUGHPUT_RUNS runs (a single run on a shared two-core machine
        # varies by a quarter); each run gets a fresh simulator.
        def median_run(argv, env_, shell=False):
            times, rss = [], 0
            for _ in range(THROUGHPUT_RUNS):
                with Simulator("--blast", str(EVENTS), "--blast-bytes", "300") as sim:
                    argv_ = argv(sim) if callable(argv) else argv
                    seconds, peak = run_timed(argv_, dict(env_, OPENCLAW_GATEWAY_URL=sim.url), shell=shell)
                    times.append(seconds)
                    rss = max(rss, peak)
            return statistics.median(times), rss
        figures = {}
        figures["passthrough (floor)"] = median_run(
            lambda sim: [os.path.join(state, "passthrough"), str(sim.port), TOKEN, str(EVENTS)], env)[0] \
            if build_passthrough(state) else None
        figures["openclaw watch > /dev/null"], watch_rss = median_run(
            [OPENCLAW, "watch", "--count", str(EVENTS)], env)
        figures["openclaw watch | wc -l"] = median_run(
            f'"$OPENCLAW" watch --count {EVENTS} | wc -l >/dev/null', dict(env, OPENCLAW=OPENCLAW), shell=True)[0]
        for name, seconds in figures.items():
            if seconds is None:
                print(f"   {name:28s} (not built: no C compiler)")
                continue
            print(f"   {name:28s} {seconds:6.2f} s  {EVENTS / seconds:>12,.0f} events/s  {mb / seconds:8.1f} MB/s")
        rate = EVENTS / figures["openclaw watch > /dev/null"]
        results.append(("watch >= 2,000,000 events/s into /dev/null", rate >= 2_000_000))
        wc_rate = EVENTS / figures["openclaw watch | wc -l"]
        results.append(("watch >= 1,500,000 events/s through wc -l", wc_rate >= 1_500_000))

        # 3. Peak RSS.
        with Simulator("--history-fixture", "1000:4096") as sim:
            env3 = dict(env, OPENCLAW_GATEWAY_URL=sim.url)
            _, history_rss = run_timed([OPENCLAW, "history", "--limit", "1000"], env3)
        print("\n3. peak RSS")
        print(f"   history of 1000 x 4 KB messages: {history_rss / 1024:.1f} MB")
        print(f"   watch of {EVENTS:,} events:      {watch_rss / 1024:.1f} MB")
        results.append(("peak RSS <= 32 MB", max(history_rss, watch_rss) <= 32 * 1024))

        # 4. Instructions.
        print("\n4. instructions (callgrind)")
        if shutil.which("valgrind"):
            with Simulator("--history-fixture", "20:200") as sim:
                env4 = dict(env, OPENCLAW_GATEWAY_URL=sim.url)
                version_ir = instructions([OPENCLAW, "version"], env4)
                history_ir = instructions([OPENCLAW, "history"], env4)
                # The same with the identity and the device token read from an official state database.
                db_state = tempfile.mkdtemp(prefix="openclaw-bench-db-")
                make_state_database(db_state)
                env_db = dict(env4, HOME=db_state, OPENCLAW_STATE_DIR=db_state)
                run_timed([OPENCLAW, "history"], env_db)  # creates the identity row once
                history_db_ir = instructions([OPENCLAW, "history"], env_db)
                shutil.rmtree(db_state, ignore_errors=True)
            # The official CLI's scripting verbs, answered natively: each one-shot verb beside history.
            verb_ir = []
            with Simulator("--history-fixture", "20:200", "--cron-jobs", "8") as sim:
                env_verbs = dict(env, OPENCLAW_GATEWAY_URL=sim.url)
                for label, argv in VERBS:
                    verb_ir.append((label, instructions([OPENCLAW, *argv], env_verbs)))
            small, large = 10_000, 50_000
            per_event = []
            for n in (small, large):
                with Simulator("--blast", str(n), "--blast-bytes", "300") as sim:
                    per_event.append(instructions([OPENCLAW, "watch", "--count", str(n)],
                                                  dict(env, OPENCLAW_GATEWAY_URL=sim.url)))
            event_ir = (per_event[1] - per_event[0]) / (large - small)
            print(f"   openclaw version:            {version_ir / 1e6:8.2f} M  (goal <= 1.2 M)")
            print(f"   openclaw history:            {history_ir / 1e6:8.2f} M  (target <= 12 M; goal <= 4.0 M)")
            print(f"   openclaw history, SQLite:    {history_db_ir / 1e6:8.2f} M  (target <= 12 M; identity and token from state/openclaw.sqlite)")
            print(f"   openclaw watch, per event:   {event_ir:8,.0f}    (target <= 5,000; goal <= 2,500; {small:,} vs {large:,} events)")
            # An absolute margin, not a ratio: start-up is shared, so what a verb adds is its own reply.
            for label, ir in verb_ir:
                print(f"   openclaw {label:20s}{ir / 1e6:8.2f} M  ({(ir - history_ir) / 1e6:+.2f} M beside history; target <= +1.0 M)")
            results.append(("each one-shot verb within 1.0 M instructions of history",
                            all(ir <= history_ir + 1.0e6 for _, ir in verb_ir)))
            results.append(("version <= 1.2 M instructions (goal)", version_ir <= 1.2e6))
            results.append(("history <= 4.0 M instructions (goal)", history_ir <= 4.0e6))
            results.append(("history <= 12 M instructions", history_ir <= 12e6))
            results.append(("history with the state database <= 12 M instructions", history_db_ir <= 12e6))
            results.append(("watch <= 5,000 instructions per event", event_ir <= 5000))
            results.append(("watch <= 2,500 instructions per event (goal)", event_ir <= 2500))
        else:
            print("   (valgrind not installed: skipped)")

        # 5. The same work by a plain Python websockets client.
        print("\n5. side by side: a plain Python `websockets` client (bench/pyclient.py, token-only connect)")
        if ensure_websockets():
            with Simulator("--history-fixture", "20:200") as sim:
                py_history = [run_timed([sys.executable, PYCLIENT, sim.url, TOKEN, "history"], env)[0]
                              for _ in range(PY_RUNS)]
                py_history_ir = instructions([sys.executable, PYCLIENT, sim.url, TOKEN, "history"], env) \
                    if shutil.which("valgrind") else None
            with Simulator("--blast", str(PY_EVENTS), "--blast-bytes", "300") as sim:
                py_watch = run_timed([sys.executable, PYCLIENT, sim.url, TOKEN, "watch", str(PY_EVENTS)], env)[0]
            ir = f", {py_history_ir / 1e6:.1f} M instructions" if py_history_ir else ""
            print(f"   history: openclaw median {ms(statistics.median(history))}; "
                  f"python median {ms(statistics.median(py_history))} ({PY_RUNS} runs{ir})")
            print(f"   watch > /dev/null: openclaw {rate:,.0f} events/s; python {PY_EVENTS / py_watch:,.0f} events/s "
                  f"({PY_EVENTS:,} events)")
        else:
            print("   (python websockets not installable: skipped)")

        node_side_by_side(env, results)

        debug_reader(env, results)

        print("\ntargets:")
        print_targets(results)
    finally:
        shutil.rmtree(state, ignore_errors=True)


def tls_cost(env, results):
    """history's CPU over ws:// and over wss://: pinned, and verified against the system's certificates plus
    the test root in each trust configuration: the system's store (a hashed directory and its bundle, both
    read, as /etc/ssl/certs and ca-certificates.crt are), SSL_CERT_FILE naming the bundle, and SSL_CERT_FILE
    and NODE_EXTRA_CA_CERTS both naming it (read once). Every verified row must stay within 2.5x ws://."""
    work = tempfile.mkdtemp(prefix="openclaw-bench-tls-")
    try:
        pki = os.path.join(work, "pki")
        subprocess.run([os.path.join(ROOT, "Tests", "RealWorld", "make-pki.sh"), pki, "p256"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        store = os.path.join(work, "certs")
        os.mkdir(store)
        bundle = os.path.join(work, "bundle.pem")
        system_bundle = "/etc/ssl/certs/ca-certificates.crt"
        with open(bundle, "w") as out:
            if os.path.exists(system_bundle):
                out.write(open(system_bundle).read())
            out.write(open(os.path.join(pki, "root.pem")).read())
        count = 0
        for block in open(bundle).read().split("-----END CERTIFICATE-----")[:-1]:
            with open(os.path.join(store, f"ca-{count}.pem"), "w") as out:
                out.write(block.strip() + "\n-----END CERTIFICATE-----\n")
            count += 1
        subprocess.run(["openssl", "rehash", store], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        fingerprint = subprocess.run(["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in",
                                      os.path.join(pki, "leaf.pem")], check=True, capture_output=True,
                                     text=True).stdout.strip().split("=")[-1]
        with Simulator("--history-fixture", "20:200") as plain, \
                Simulator("--history-fixture", "20:200", "--tls-cert", os.path.join(pki, "fullchain.pem"),
                          "--tls-key", os.path.join(pki, "key.pem")) as tls:
            ws = dict(env, OPENCLAW_GATEWAY_URL=plain.url)
            wss = dict(env, OPENCLAW_GATEWAY_URL=tls.url)
            run_timed([OPENCLAW, "history"], ws)
            base, _ = startup_cost([OPENCLAW, "history"], ws)
            pinned, _ = startup_cost([OPENCLAW, "history", "--tls-fingerprint", fingerprint], wss)
            verified = [
                ("system store (hashed directory + bundle)", dict(wss, SSL_CERT_DIR=store, SSL_CERT_FILE=bundle)),
                ("SSL_CERT_FILE = the bundle", dict(wss, SSL_CERT_FILE=bundle)),
                ("SSL_CERT_FILE and NODE_EXTRA_CA_CERTS = it", dict(wss, SSL_CERT_FILE=bundle, NODE_EXTRA_CA_CERTS=bundle)),
            ]
            costs = [(name, startup_cost([OPENCLAW, "history"], env_)[0]) for name, env_ in verified]
        print(f"   history over ws://                                        {base:6.2f} ms")
        print(f"   history over wss://, pinned (--tls-fingerprint)           {pinned:6.2f} ms  ({pinned / base:.1f}x ws://)")
        for name, cpu in costs:
            print(f"   history over wss://, verified, {name:42s} {cpu:6.2f} ms  ({cpu / base:.1f}x ws://; "
                  f"{count} CAs; target <= 2.5x)")
            results.append((f"wss:// verified history, {name}: <= 2.5x ws:// CPU", cpu <= 2.5 * base))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def make_state_database(state):
    """`<state>/state/openclaw.sqlite` with the official schema (Tests/Fixtures), in WAL mode."""
    schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "official-state-schema.sql")
    os.makedirs(os.path.join(state, "state"), mode=0o700)
    db = sqlite3.connect(os.path.join(state, "state", "openclaw.sqlite"), isolation_level=None)
    db.executescript("PRAGMA page_size = 4096; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL;")
    with open(schema) as f:
        db.executescript(f.read())
    db.close()


def make_legacy_identity(state):
    """`<state>/identity/device.json` as older official CLIs wrote it (an Ed25519 key from the openssl
    command, the device id the SHA-256 of the raw public key); False without the openssl command."""
    if not shutil.which("openssl"):
        return False
    key = subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519"], capture_output=True, text=True, check=True).stdout
    public = subprocess.run(["openssl", "pkey", "-pubout"], input=key, capture_output=True, text=True, check=True).stdout
    raw = subprocess.run(["openssl", "pkey", "-pubout", "-outform", "DER"], input=key.encode(), capture_output=True,
                         check=True).stdout[-32:]
    import hashlib, json
    identity = {"version": 1, "deviceId": hashlib.sha256(raw).hexdigest(), "publicKeyPem": public,
                "privateKeyPem": key, "createdAtMs": int(time.time() * 1000)}
    os.makedirs(os.path.join(state, "identity"), mode=0o700)
    path = os.path.join(state, "identity", "device.json")
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
        json.dump(identity, f, indent=2)
    return True


# The one-shot official verbs measured in section 4 (sessions: the gateway's list, as with --url).
VERBS = [
    ("agent --json", ["agent", "-m", "hi", "--json"]),
    ("health --json", ["health", "--json"]),
    ("system event", ["system", "event", "--text", "bench"]),
    ("logs --json", ["logs", "--json"]),
    ("cron list --json", ["cron", "list", "--json"]),  # 8 jobs: a payload the size of history's
    ("sessions --json", ["sessions", "--json"]),
]


def instructions(argv, env):
    """Instructions executed by `argv` (callgrind's total, the same figure on an idle or busy machine)."""
    fd, out = tempfile.mkstemp(prefix="openclaw-bench-callgrind-")  # callgrind writes over it
    os.close(fd)
    try:
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        m = re.search(r"Collected : (\d+)", proc.stderr)
        if proc.returncode != 0 or not m:
            sys.exit(f"bench: callgrind of {argv} failed: {proc.stderr.strip()[-500:]}")
        return int(m.group(1))
    finally:
        if os.path.exists(out):
            os.remove(out)


def cpu_seconds(argv, env):
    """CPU time (user + system) of one run of `argv`, its output discarded."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {argv} failed: {err.strip()}")
    return usage.ru_utime + usage.ru_stime


def node_side_by_side(env, results):
    """5b. openclaw beside a Node client on `ws` (bench/nodeclient.js), run alternately: one-shot
    history in CPU time and watch in events/s, medians of NODE_RUNS each."""
    print(f"\n5b. side by side: a Node client on `ws` (bench/nodeclient.js, token-only connect), "
          f"alternating, medians of {NODE_RUNS}")
    node = shutil.which("node")
    if not node or not os.path.isfile(os.path.join(NODE_PATH, "ws", "package.json")):
        print(f"   (node or {NODE_PATH}/ws missing: `scripts/install-deps.sh bench` installs them)")
        return
    node_env = dict(env, NODE_PATH=NODE_PATH)
    with Simulator("--history-fixture", "20:200") as sim:
        history_env = dict(node_env, OPENCLAW_GATEWAY_URL=sim.url)
        cpu_seconds([OPENCLAW, "history"], history_env)  # creates the device identity once
        ours, theirs = [], []
        for _ in range(NODE_RUNS):
            ours.append(cpu_seconds([OPENCLAW, "history"], history_env))
            theirs.append(cpu_seconds([node, NODECLIENT, sim.url, TOKEN, "history"], node_env))
    history_ratio = statistics.median(theirs) / statistics.median(ours)
    print(f"   history, CPU: openclaw {ms(statistics.median(ours))}; node {ms(statistics.median(theirs))} "
          f"({history_ratio:.1f}x; goal >= 35x)")
    ours, theirs = [], []
    for _ in range(NODE_RUNS):
        with Simulator("--blast", str(NODE_EVENTS), "--blast-bytes", "300") as sim:
            ours.append(run_timed([OPENCLAW, "watch", "--count", str(NODE_EVENTS)],
                                  dict(env, OPENCLAW_GATEWAY_URL=sim.url))[0])
        with Simulator("--blast", str(NODE_EVENTS), "--blast-bytes", "300") as sim:
            theirs.append(run_timed([node, NODECLIENT, sim.url, TOKEN, "watch", str(NODE_EVENTS)], node_env)[0])
    our_rate, their_rate = NODE_EVENTS / statistics.median(ours), NODE_EVENTS / statistics.median(theirs)
    print(f"   watch > /dev/null: openclaw {our_rate:,.0f} events/s; node {their_rate:,.0f} events/s "
          f"({our_rate / their_rate:.1f}x; goal >= 15x; {NODE_EVENTS:,} events)")
    results.append(("history >= 35x below the Node client in CPU (goal)", history_ratio >= 35))
    results.append(("watch >= 15x the Node client's events/s (goal)", our_rate / their_rate >= 15))


def ensure_websockets():
    """The `websockets` package for pyclient.py, installed with pip (user site) when missing."""
    check = [sys.executable, "-c", "import websockets.sync.client"]
    if subprocess.run(check, stderr=subprocess.DEVNULL).returncode == 0:
        return True
    print("   installing websockets with pip ...")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "websockets"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return subprocess.run(check, stderr=subprocess.DEVNULL).returncode == 0


def build_passthrough(state):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return False
    subprocess.run([cc, "-O2", "-o", os.path.join(state, "passthrough"), os.path.join(ROOT, "bench", "passthrough.c")],
                   check=True)
    return True


if __name__ == "__main__":
    main()
