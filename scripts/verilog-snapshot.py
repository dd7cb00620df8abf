#!/usr/bin/env python3
"""Builds every corpus and PolyBench kernel for every target and clock the tests use and prints
one line per Verilog file written: `config kernel-file output-file sha256`, sorted (a build
that fails prints its diagnostic codes instead). Two snapshots taken before and after a change
that must not change the hardware are compared with `diff`:

    scripts/verilog-snapshot.py target/release/kiln > before.txt
    ... change ...
    scripts/verilog-snapshot.py target/release/kiln > after.txt && diff before.txt after.txt
"""

import concurrent.futures
import hashlib
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPORA = ["tests/kernels", "tests/systems", "tests/checklist", "tests/float", "tests/real", "tests/cxx",
           "bench/polybench-kernels", "bench/polybench-as-written", "examples"]
CONFIGS = {
    "generic": [],
    "generic-O1": ["-O1"],
    "generic@120": ["--clock-mhz", "120"],
    "ice40": ["--target", "ice40-up5k"],
    "ice40@50": ["--target", "ice40-up5k", "--clock-mhz", "50"],
    "ice40@60": ["--target", "ice40-up5k", "--clock-mhz", "60"],
    "ecp5": ["--target", "ecp5"],
    "ecp5@120": ["--target", "ecp5", "--clock-mhz", "120"],
}


def spec_flags(cl: pathlib.Path) -> list[str]:
    """The work-group size and defines a kernel's run spec gives it."""
    spec = cl.with_suffix(".toml")
    flags: list[str] = []
    if not spec.exists():
        return flags
    try:
        data = tomllib.loads(spec.read_text())
    except tomllib.TOMLDecodeError:
        return flags
    if "local_size" in data:
        flags += ["--local-size", ",".join(str(v) for v in data["local_size"])]
    for name, value in data.get("defines", {}).items():
        flags += ["-D", f"{name}={value}"]
    return flags


def build(kiln: str, config: str, cl: pathlib.Path) -> list[str]:
    rel = cl.relative_to(ROOT)
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run([kiln, "build", str(cl), "-o", out, *CONFIGS[config], *spec_flags(cl)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            codes = sorted(set(re.findall(r"\b[EW]\d{4}\b", run.stderr)))
            return [f"{config} {rel} FAILED {' '.join(codes)}"]
        lines = []
        for v in sorted(pathlib.Path(out).glob("*.v")):
            digest = hashlib.sha256(v.read_bytes()).hexdigest()
            lines.append(f"{config} {rel} {v.name} {digest}")
        return lines


def main() -> None:
    kiln = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/kiln")
    files = sorted(p for c in CORPORA if (ROOT / c).is_dir() for p in (ROOT / c).glob("*.cl*"))
    jobs = [(config, cl) for config in CONFIGS for cl in files]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = pool.map(lambda j: build(kiln, *j), jobs)
        lines = sorted(line for r in results for line in r)
    print("\n".join(lines))
    built = sum(1 for l in lines if " FAILED" not in l)
    print(f"{len(jobs)} builds, {built} Verilog files", file=sys.stderr)


if __name__ == "__main__":
    main()
