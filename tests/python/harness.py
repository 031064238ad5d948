"""What every protocol test script shares: where the engine is, the engine
run to its end or driven line by line with bounded waits, and running a
script's `test_*` functions as a plain script (one line per test, a final
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

# Every wait on an engine is bounded: a hang fails the test instead of the run.
TIMEOUT = 60.0


def splitpoint(*args, input=None, check=False, timeout=TIMEOUT):
    """`splitpoint ARGS…` run to its end (`input` on its standard input)."""
    return subprocess.run([BIN, *args], input=input, capture_output=True, text=True,
                          check=check, timeout=timeout)


class Pipe:
    """`splitpoint ARGS…` (or another `program`) on pipes, its output read by
    a thread so that every read has a deadline; `name` names it in failures.
    As a context manager it quits at the end."""

    def __init__(self, *args, timeout=TIMEOUT, program=BIN, name=None):
        self.timeout = timeout
        self.name = name or " ".join(["splitpoint", *args])
        # Nobody reads the errors: a full pipe must not stop the engine.
        self.proc = subprocess.Popen([program, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
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
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{self.name}: no answer in time after {seen[-5:]}") from None
            assert line is not None, f"{self.name} closed its output; it said {seen}"
            seen.append(line)
            if done(line):
                return seen

    def expect(self, prefix):
        """Lines up to and including the first that starts with `prefix`."""
        return self.until(lambda line: line.startswith(prefix))

    def quit(self):
        """Sends `quit`; the engine must exit with status 0."""
        self.send("quit")
        try:
            assert self.proc.wait(timeout=self.timeout) == 0
        finally:
            self.proc.stdin.close()
            self.proc.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.quit()


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
