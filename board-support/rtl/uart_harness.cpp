// kiln: Verilator harness for a board top level (`kiln_board_top`). It models the board's USB
// UART at the bit level: bytes from the host are sent on `uart_rx` as 8N1 frames of
// CLKS_PER_BIT cycles each, and frames on `uart_tx` are decoded back into bytes, sampled in the
// middle of each bit like the bridge's own receiver.
//
// The host (board-support/src/sim.rs) drives it over stdin/stdout with binary messages:
//   'T' len[4] bytes   queue bytes for the board
//   'R' n[4]           clock until n bytes came from the board; answer
//                      'D' n[4] bytes cycles[8]   or   'E' len[4] message
//   'Q'                quit
// Integers are little-endian.
#include "Vkiln_board_top.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

static bool read_all(void* p, size_t n) { return std::fread(p, 1, n, stdin) == n; }
static void write_all(const void* p, size_t n) { std::fwrite(p, 1, n, stdout); }
static void put_u32(uint32_t v) { write_all(&v, 4); }
static void put_u64(uint64_t v) { write_all(&v, 8); }
static void error(const std::string& msg) {
    std::fputc('E', stdout);
    put_u32((uint32_t)msg.size());
    write_all(msg.data(), msg.size());
    std::fflush(stdout);
}

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s CLKS_PER_BIT MAX_CYCLES_PER_READ\n", argv[0]);
        return 2;
    }
    const uint64_t cpb = std::strtoull(argv[1], nullptr, 10);
    const uint64_t max_cycles = std::strtoull(argv[2], nullptr, 10);
    VerilatedContext* ctx = new VerilatedContext;
    Vkiln_board_top* top = new Vkiln_board_top{ctx};

    std::deque<uint8_t> to_board;
    std::deque<uint8_t> from_board;
    // Transmitter towards the board: the frame being sent and where in it we are.
    uint16_t frame = 0;
    int frame_bit = -1;
    uint64_t bit_clock = 0;
    // Receiver of the board's frames.
    enum { IDLE, START, BITS, STOP } rx_state = IDLE;
    uint64_t rx_clock = 0;
    int rx_bit = 0;
    uint8_t rx_shift = 0;
    uint64_t cycles = 0;

    auto tick = [&]() {
        if (frame_bit < 0 && !to_board.empty()) {
            frame = (uint16_t)((1u << 9) | ((uint16_t)to_board.front() << 1));
            to_board.pop_front();
            frame_bit = 0;
            bit_clock = 0;
        }
        top->uart_rx = frame_bit < 0 ? 1 : ((frame >> frame_bit) & 1);
        top->clk_osc = 0;
        top->eval();
        top->clk_osc = 1;
        top->eval();
        cycles++;
        if (frame_bit >= 0 && ++bit_clock == cpb) {
            bit_clock = 0;
            if (++frame_bit == 10) frame_bit = -1;
        }
        const int line = top->uart_tx;
        switch (rx_state) {
            case IDLE:
                if (!line) {
                    rx_state = START;
                    rx_clock = 0;
                }
                break;
            case START:
                if (++rx_clock == cpb / 2) {
                    rx_state = line ? IDLE : BITS;
                    rx_clock = 0;
                    rx_bit = 0;
                }
                break;
            case BITS:
                if (++rx_clock == cpb) {
                    rx_clock = 0;
                    rx_shift = (uint8_t)((rx_shift >> 1) | (line ? 0x80 : 0));
                    if (++rx_bit == 8) rx_state = STOP;
                }
                break;
            case STOP:
                if (++rx_clock == cpb) {
                    if (line) from_board.push_back(rx_shift);
                    rx_state = IDLE;
                }
                break;
        }
    };

    for (;;) {
        int cmd = std::fgetc(stdin);
        if (cmd == EOF || cmd == 'Q') break;
        uint32_t n = 0;
        if (!read_all(&n, 4)) break;
        if (cmd == 'T') {
            std::vector<uint8_t> bytes(n);
            if (n && !read_all(bytes.data(), n)) break;
            to_board.insert(to_board.end(), bytes.begin(), bytes.end());
        } else if (cmd == 'R') {
            uint64_t waited = 0;
            while (from_board.size() < n && waited < max_cycles) {
                tick();
                waited++;
            }
            if (from_board.size() < n) {
                error("the board sent " + std::to_string(from_board.size()) + " of " + std::to_string(n) +
                      " expected bytes within " + std::to_string(max_cycles) + " cycles");
                continue;
            }
            std::fputc('D', stdout);
            put_u32(n);
            for (uint32_t i = 0; i < n; i++) {
                std::fputc(from_board.front(), stdout);
                from_board.pop_front();
            }
            put_u64(cycles);
            std::fflush(stdout);
        } else {
            error("unknown harness command");
        }
    }
    top->final();
    delete top;
    delete ctx;
    return 0;
}
