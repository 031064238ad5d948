"""What every protocol test script shares: where the engine is, and running
a script's `test_*` functions as a plain script (one line per test, a final
`N passed, M failed` line, a non-zero status on any failure)."""

import os
import queue
import subprocess
import threading
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("SPLITPOINT_BIN", "target/release/splitpoint")
if not os.path.isabs(BIN) and not os.path.exists(BIN):
    BIN = os.path.join(ROOT, BIN)


class Pipe:
    """`splitpoint ARGS…` on pipes, its output read by a thread so that every
    read has a deadline: a hang fails the test instead of the run."""

    def __init__(self, *args, timeout=60.0):
        self.timeout = timeout
        self.proc = subprocess.Popen([BIN, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, done):
        """Lines up to and including the first for which `done` holds."""
        seen = []
        deadline = time.monotonic() + self.timeout
        while True:
            line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"the engine closed its output; it said {seen}"
            seen.append(line)
            if done(line):
                return seen

    def quit(self):
        """Sends `quit`; the engine must exit with status 0."""
        self.send("quit")
        try:
            assert self.proc.wait(timeout=self.timeout) == 0
        finally:
            for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                pipe.close()


def run_tests(namespace):
    """Runs the `test_*` callables of `namespace` (a script's globals())."""
    tests = [(name, fn) for name, fn in sorted(namespace.items()) if name.startswith("test_") and callable(fn)]
    if not os.path.exists(BIN):
        print(f"engine not found at {BIN} (build it, or set SPLITPOINT_BIN)")
        print(f"0 passed, {len(tests)} failed")
        return 1
    passed = failed = 0
    for name, fn in tests:
        start = time.monotonic()
        try:
            fn()
        except Exception:  # a failed assertion or an engine error
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
        else:
            passed += 1
            print(f"ok   {name} ({time.monotonic() - start:.1f} s)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
