"""Benchmark: a new user's first `aifcheck validate` after `pip install .`, against the warm runs
that follow it, in one run.

A fresh virtualenv, aifcheck installed into it from this checkout with `pip install .` (a wheel,
not editable), an empty cache folder (XDG_CACHE_HOME, AIFCHECK_CACHE_DIR): the first run is timed,
then --repeat warm runs. The target (issue 35): the first run of the 11k-triple NIST KB at most
1 s of wall time, and within 20% of a warm run. The table prints the machine and its load.

    python benchmarks/bench_first_run.py [KB.ttl] [--repeat N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_KB = ROOT.parent / "shared" / "data" / "m54" / "task1-run" / "L0C0499MZ.ttl"


def timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return elapsed, proc.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kb", nargs="?", type=Path, default=DEFAULT_KB)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build the venv here and keep it (default: a temporary folder)")
    args = parser.parse_args()
    if not args.kb.is_file():
        raise SystemExit(f"{args.kb}: no such file (the default input lives in ../shared/data)")
    work = args.keep or Path(tempfile.mkdtemp(prefix="aifcheck-first-run-"))
    try:
        venv = work / "venv"
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(ROOT)], check=True)
        install = time.perf_counter() - started
        env = {
            **os.environ,
            "XDG_CACHE_HOME": str(work / "cache"),
            "AIFCHECK_CACHE_DIR": str(work / "cache" / "aifcheck"),
        }
        env.pop("PYTHONPATH", None)
        command = [str(venv / "bin" / "aifcheck"), "validate", str(args.kb)]
        first, stderr = timed(command, env)
        warm = [timed(command, env)[0] for _ in range(args.repeat)]
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    median = statistics.median(warm)
    load = os.getloadavg()[0]
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()},"
        f" load {load:.1f} (1 min) at the start of the runs"
    )
    print(f"install (venv + pip install .): {install:.1f} s")
    print("| run | wall s | / warm median |")
    print("| --- | ---: | ---: |")
    print(f"| first `aifcheck validate` after install | {first:.3f} | {first / median:.2f}x |")
    print(f"| warm, median of {args.repeat} | {median:.3f} | 1.00x |")
    built = "building it" in stderr
    print(
        f"first run built the catalogue: {'yes' if built else 'no'}; target: first <= 1.0 s and within 1.2x of warm: "
        f"{'met' if first <= 1.0 and first <= 1.2 * median and not built else 'missed'}"
    )


if __name__ == "__main__":
    main()
