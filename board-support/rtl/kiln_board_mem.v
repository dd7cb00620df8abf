// kiln board top level: one `__global`/`__constant` buffer in on-chip RAM.
//
// One port, shared: while the kernel runs (`kernel_owns`) it is the kernel's memory port of
// docs/timing.md §3 (always ready, reads answered one cycle after the request, like `kiln sim`
// with `--mem-latency 1`); otherwise the host bridge reads and writes it a byte at a time.
// The read is registered, which lets Yosys map the array to block RAM or single-port RAM
// (SPRAM). The bridge's side is registered on the way in (address, write, byte) and on the way
// out (the word, then its byte): a bridge write reaches the array a cycle after the bridge
// presents it, and a read's byte is `b_rbyte` four cycles after its address. The bridge's
// port and write decode into the block RAMs' write enables, and the byte multiplexer into the
// bridge's transmit multiplexer, were the longest paths of iCE40 designs (matmul, 53 MHz).
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
    output reg  [7:0]           b_rbyte
);
    reg [WIDTH-1:0] rdata;
    reg [LANE_BITS-1:0] read_lane;

    // The bridge's request, a cycle late (the bridge is a UART's pace away from its next one).
    /* verilator lint_off UNUSEDSIGNAL */
    reg [31:0] b_addr_q;
    /* verilator lint_on UNUSEDSIGNAL */
    reg        b_we_q;
    reg [7:0]  b_wbyte_q;
    always @(posedge clk) begin
        b_addr_q <= b_addr;
        b_we_q <= b_we;
        b_wbyte_q <= b_wbyte;
    end

    wire [ADDR_BITS-1:0] addr = kernel_owns ? k_req_addr[ADDR_BITS-1:0] : b_addr_q[LANE_SHIFT +: ADDR_BITS];
    wire [LANE_BITS-1:0] lane = LANE_SHIFT == 0 ? {LANE_BITS{1'b0}} : b_addr_q[LANE_BITS-1:0];
    // The kernel requests only while it runs and the bridge writes only while it does not
    // (`bus_we <= !running`), so the write enables need no owner: `kernel_owns` (the bridge's
    // `running`, a net across the whole design) in front of the RAMs' write enables was the
    // critical path of iCE40 designs. A lane's enable is one LUT after the kernel's write
    // request (`k_req_we`, which implies `k_req_valid`: docs/timing.md §3, so the loads'
    // request terms stay out of it) and strobe, and the bridge's enable of that lane; the
    // write data follow the bridge's enable.
    wire [WIDTH-1:0]     wdata = b_we_q ? {BYTES{b_wbyte_q}} : k_req_wdata;
    wire [BYTES-1:0]     lane_we;

    genvar g;
    generate
        for (g = 0; g < BYTES; g = g + 1) begin : lanes
            localparam [LANE_BITS-1:0] LANE = g;
            wire bridge_lane_we = b_we_q && lane == LANE;
            assign lane_we[g] = (k_req_we && k_req_wstrb[g]) || bridge_lane_we;
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

    // The bridge's word, registered before its byte is chosen (a block RAM's read data through
    // the byte multiplexer into a register was the longest path of the ECP5 designs, its
    // clock-to-out alone 5.8 ns there), then the byte, registered before the board's
    // multiplexer of the buffers. The lane is one-hot, the byte an AND-OR of the word's bytes:
    // a multiplexer indexed by the lane's number was three LUT levels on the iCE40.
    reg [WIDTH-1:0] b_rword_q;
    reg [BYTES-1:0] b_lane_hot_q;
    wire [8*BYTES-1:0] b_masked;
    generate
        for (g = 0; g < BYTES; g = g + 1) begin : read_lanes
            localparam [LANE_BITS-1:0] LANE = g;
            always @(posedge clk) b_lane_hot_q[g] <= read_lane == LANE;
            assign b_masked[8*g +: 8] = b_rword_q[8*g +: 8] & {8{b_lane_hot_q[g]}};
        end
    endgenerate
    reg [7:0] b_byte;
    integer j;
    always @(*) begin
        b_byte = 8'd0;
        for (j = 0; j < BYTES; j = j + 1) b_byte = b_byte | b_masked[8*j +: 8];
    end
    always @(posedge clk) begin
        b_rword_q <= rdata;
        b_rbyte <= b_byte;
    end

    assign k_resp_rdata = rdata;
endmodule
