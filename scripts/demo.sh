#!/usr/bin/env bash
# Builds kiln and runs it on the bundled vector-add example: compile to Verilog, simulate cycle by
# cycle, co-simulate the Verilog in Verilator with random memory stalls, build an iCEBreaker
# bitstream, and run the kernel on the simulated board through its UART host bridge.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
cargo build --release --locked -p kiln-cli
kiln=target/release/kiln
set -x
$kiln check examples/vadd.cl
$kiln build examples/vadd.cl -o out/vadd
$kiln emu examples/vadd.cl --spec examples/vadd.toml
$kiln sim examples/vadd.cl --spec examples/vadd.toml --vcd out/vadd/vadd.vcd
$kiln cosim examples/vadd.cl --spec examples/vadd.toml --stall-seed 1 --json out/vadd/results.json
$kiln bitstream examples/vadd.cl --board icebreaker -o out/vadd-icebreaker
$kiln run-board examples/vadd.cl --spec examples/vadd.toml --board icebreaker --simulate
