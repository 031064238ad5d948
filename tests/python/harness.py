"""What every protocol test script shares: where the engine is, and running
a script's `test_*` functions as a plain script (one line per test, a final
`N passed, M failed` line, a non-zero status on any failure)."""

import os
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("SPLITPOINT_BIN", "target/release/splitpoint")
if not os.path.isabs(BIN) and not os.path.exists(BIN):
    BIN = os.path.join(ROOT, BIN)


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
