#!/usr/bin/env bash
# Installs, with apt, the external tools kiln's tests and flows need, when they are missing:
# Verilator, Icarus Verilog, Yosys, nextpnr-ice40, the IceStorm tools and chip database, gcc/g++.
set -euo pipefail

declare -A package_of=(
    [verilator]=verilator
    [iverilog]=iverilog
    [yosys]=yosys
    [nextpnr-ice40]=nextpnr-ice40
    [icepack]=fpga-icestorm
    [gcc]=gcc
    [g++]=g++
    [make]=make
)
missing=()
for tool in "${!package_of[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("${package_of[$tool]}")
done
# icetime needs the chip database, which fpga-icestorm only recommends.
[ -e /usr/share/icestorm/chipdb-5k.txt ] || missing+=(fpga-icestorm-chipdb)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
echo "installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "error: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
