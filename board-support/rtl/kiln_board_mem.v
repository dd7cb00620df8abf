// kiln board top level: one `__global`/`__constant` buffer in on-chip RAM.
//
// One port, shared: while the kernel runs (`kernel_owns`) it is the kernel's memory port of
// docs/timing.md §3 (always ready, reads answered one cycle after the request, like `kiln sim`
// with `--mem-latency 1`); otherwise the host bridge reads and writes it a byte at a time.
// The read is registered, which lets Yosys map the array to block RAM or single-port RAM
// (SPRAM).
module kiln_board_mem #(
    parameter WIDTH = 32,
    parameter BYTES = 4,
    parameter ADDR_BITS = 10,
    // log2(BYTES); LANE_BITS is at least 1 so that byte-wide buffers need no special case.
    parameter LANE_SHIFT = 2,
    parameter LANE_BITS = 2,
    // 1: map the array to the single-port RAM blocks (iCE40 SPRAM) instead of block RAM.
    parameter SINGLE_PORT_RAM = 0
) (
    input  wire                 clk,
    input  wire                 kernel_owns,
    input  wire                 k_req_valid,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]          k_req_addr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                 k_req_we,
    input  wire [WIDTH-1:0]     k_req_wdata,
    input  wire [BYTES-1:0]     k_req_wstrb,
    output reg                  k_resp_valid,
    output wire [WIDTH-1:0]     k_resp_rdata,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]          b_addr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                 b_we,
    input  wire [7:0]           b_wbyte,
    output wire [7:0]           b_rbyte
);
    reg [WIDTH-1:0] rdata;
    reg [LANE_BITS-1:0] read_lane;

    wire [ADDR_BITS-1:0] addr = kernel_owns ? k_req_addr[ADDR_BITS-1:0] : b_addr[LANE_SHIFT +: ADDR_BITS];
    wire [LANE_BITS-1:0] lane = LANE_SHIFT == 0 ? {LANE_BITS{1'b0}} : b_addr[LANE_BITS-1:0];
    // The kernel requests only while it runs and the bridge writes only while it does not
    // (`bus_we <= !running`), so the write enables need no owner: `kernel_owns` (the bridge's
    // `running`, a net across the whole design) in front of the RAMs' write enables was the
    // critical path of iCE40 designs. A lane's enable is one LUT after the kernel's request
    // (its valid, write and strobe, and the bridge's enable of that lane); the write data
    // follow the bridge's enable.
    wire [WIDTH-1:0]     wdata = b_we ? {BYTES{b_wbyte}} : k_req_wdata;
    wire [BYTES-1:0]     lane_we;

    genvar g;
    generate
        for (g = 0; g < BYTES; g = g + 1) begin : lanes
            localparam [LANE_BITS-1:0] LANE = g;
            wire bridge_lane_we = b_we && lane == LANE;
            assign lane_we[g] = (k_req_valid && k_req_we && k_req_wstrb[g]) || bridge_lane_we;
        end
    endgenerate

    // Nobody uses the data read in a write cycle. A single-port RAM (iCE40 SPRAM) cannot read
    // the old word while writing, so it reads only in the other cycles.
    integer i;
    generate
        if (SINGLE_PORT_RAM != 0) begin : spram
            (* ram_style = "huge" *) reg [WIDTH-1:0] mem [0:(1 << ADDR_BITS) - 1];
            always @(posedge clk) begin
                for (i = 0; i < BYTES; i = i + 1) begin
                    if (lane_we[i]) mem[addr][8*i +: 8] <= wdata[8*i +: 8];
                end
                if (lane_we == {BYTES{1'b0}}) rdata <= mem[addr];
            end
        end else begin : bram
            // A block RAM reads in every cycle: what a read in a write cycle returns does not
            // matter (`no_rw_check`), and a read enable computed from the write enable put the
            // kernel's request logic twice in front of the RAM's clock enables.
            (* no_rw_check *) reg [WIDTH-1:0] mem [0:(1 << ADDR_BITS) - 1];
            always @(posedge clk) begin
                for (i = 0; i < BYTES; i = i + 1) begin
                    if (lane_we[i]) mem[addr][8*i +: 8] <= wdata[8*i +: 8];
                end
                rdata <= mem[addr];
            end
        end
    endgenerate

    always @(posedge clk) begin
        read_lane <= lane;
        k_resp_valid <= kernel_owns && k_req_valid && !k_req_we;
    end

    // The bridge's word, registered before its byte is chosen: the bridge waits a cycle for it
    // (S_READ_LATCH). A block RAM's read data through the byte multiplexer into a register was
    // the longest path of the ECP5 designs (its clock-to-out alone is 5.8 ns there).
    reg [WIDTH-1:0] b_rword_q;
    reg [LANE_BITS-1:0] b_lane_q;
    always @(posedge clk) begin
        b_rword_q <= rdata;
        b_lane_q <= read_lane;
    end

    assign k_resp_rdata = rdata;
    assign b_rbyte = b_rword_q[8*b_lane_q +: 8];
endmodule
