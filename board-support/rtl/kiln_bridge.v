// kiln host bridge: the command interpreter behind the UART (protocol in docs/board-bridge.md).
//
// Commands (host to board; multi-byte fields little-endian):
//   'I'                          -> 'K' 'L' 'N' VERSION SIGNATURE[4] NUM_PORTS NUM_ARGS
//   'W' port addr[4] count[4] data[count] -> ACK (NAK if the kernel is running: nothing written)
//   'R' port addr[4] count[4]    -> data[count] (NAK instead if the kernel is running)
//   'A' index value[8]           -> ACK (NAK if the kernel is running)
//   'S'                          -> ACK and the kernel starts (NAK if it is running)
//   'D'                          -> ACK once the kernel is not running
//   'C'                          -> cycles[8]: the last run's count (while a run goes on, its count so far)
//   anything else                -> NAK
// Addresses and counts are in bytes of the selected buffer. The memory bus is byte-wide: a write
// is one byte at `bus_addr`; a read presents `bus_addr` and takes `bus_rbyte` four cycles later.
module kiln_bridge #(
    parameter [15:0] CLKS_PER_BIT = 16'd104,
    parameter [31:0] SIGNATURE = 32'h0,
    parameter [7:0] NUM_PORTS = 8'd0,
    parameter [7:0] NUM_ARGS = 8'd0,
    // Bits of the address and byte count the bridge counts with (the largest buffer's size in
    // bytes needs no more); a 32-bit counter's carry chain would limit the clock of small FPGAs.
    parameter COUNT_BITS = 32
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        uart_rx,
    output wire        uart_tx,
    output reg  [7:0]  bus_port,
    output reg  [31:0] bus_addr,
    output reg         bus_we,
    output reg  [7:0]  bus_wbyte,
    input  wire [7:0]  bus_rbyte,
    output reg  [7:0]  arg_index,
    output reg  [63:0] arg_value,
    output reg         arg_we,
    output reg         kernel_start,
    input  wire        kernel_done,
    output reg         running,
    output reg         finished
);
    localparam [7:0] ACK = 8'h06, NAK = 8'h15, VERSION = 8'd1;
    localparam [3:0] S_CMD = 4'd0, S_HEADER = 4'd1, S_WRITE = 4'd2, S_READ = 4'd3, S_READ_WAIT = 4'd4,
                     S_READ_SEND = 4'd5, S_REPLY = 4'd6, S_REPLY_WAIT = 4'd7, S_WAIT_DONE = 4'd8,
                     S_REPLY_LOAD = 4'd9, S_READ_NEXT = 4'd10, S_DECODE = 4'd11, S_HEADER_DONE = 4'd12,
                     S_READ_LATCH = 4'd13, S_READ_LATCH2 = 4'd14, S_READ_LATCH3 = 4'd15;
    // Which reply goes out. The command decoder only picks a code; the reply's bytes are chosen
    // by the code and the byte's index (`reply_byte`), not held in a reply register.
    localparam [1:0] R_ACK = 2'd0, R_NAK = 2'd1, R_INFO = 2'd2, R_CYCLES = 2'd3;

    // The bridge's own copy of the reset: the board's reset register also fans out to the
    // kernel and the memories, and its net across the part was on the bridge's longest paths.
    reg        rst_q;
    always @(posedge clk) rst_q <= rst;

    wire [7:0] rx_data;
    wire       rx_valid;
    reg        tx_start;
    reg  [7:0] tx_data;
    wire       tx_busy;

    kiln_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) receiver (
        .clk(clk), .rst(rst_q), .rx(uart_rx), .data(rx_data), .valid(rx_valid)
    );
    kiln_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) transmitter (
        .clk(clk), .rst(rst_q), .start(tx_start), .data(tx_data), .tx(uart_tx), .busy(tx_busy)
    );

    reg [3:0]  state;
    // The command byte. A byte is stored in the cycle it arrives and acted on in the next
    // (S_DECODE, S_HEADER_DONE): deciding on the receiver's `valid` and the byte's value in one
    // cycle was a deep path into every register the decision sets.
    reg        command_w;
    reg        command_r;
    reg        command_a;
    reg        command_i;
    reg        command_s;
    reg        command_d;
    reg        command_c;
    reg [1:0]  reply_code;
    // Header bytes still to come; each lands in its field (the port or argument index, then
    // the address or the argument's low word, then the count or its high word) the cycle after
    // it arrives, so that synthesis keeps only the fields' bits the design uses. `header_byte`
    // says a header byte is in `rx_data`, `header_slot` which one (one-hot, a register of
    // `header_left`): a field's enable is one LUT of two registers, where the receiver's
    // `valid`, the state and the byte's number in front of every field's enable were the
    // bridge's longest path.
    reg [3:0]  header_left;
    reg        header_byte;
    reg [8:0]  header_slot;
    // The count's low three bytes; its last byte is still in `rx_data` when the header is done.
    reg [23:0] count;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] header_count = {rx_data, count};  // bytes_left keeps COUNT_BITS of it
    /* verilator lint_on UNUSEDSIGNAL */
    reg [COUNT_BITS-1:0] bytes_left;
    // `bytes_left == 0`, kept in a register beside it: a 32-bit zero test in front of the state
    // decoder would be the bridge's longest path.
    reg        bytes_zero;
    // One-cycle pulses that advance the address and the byte count a cycle after the decision:
    // deciding and updating in the same cycle put the state decoder in front of the enables of
    // the two 32-bit registers, the bridge's longest path.
    reg        byte_written;
    reg        byte_read;
    // The reply's bytes go out least significant first: `reply_index` is the next one's, and
    // `reply_byte` that byte, a register (the code and index change a UART frame before it is
    // sent, and the multiplexer of the count's bytes in front of `tx_data` was a path of its own).
    reg [3:0]  reply_index;
    reg [3:0]  reply_left;
    // `reply_left == 0`, a register beside it (a comparison in front of the reply's enable).
    reg        reply_empty;
    reg [7:0]  reply_byte;
    // The run's cycle counter in four 16-bit segments, each a cycle behind the one below with the
    // carry between them in a register: a longer carry chain would limit the clock of small
    // FPGAs. The carries settle three cycles after the last count, long before a 'C' can follow
    // the 'D' that saw the run end. The counter stops with the run and 'C' reads it: no copy.
    reg [15:0] cycles0;
    reg [15:0] cycles1;
    reg [15:0] cycles2;
    reg [15:0] cycles3;
    reg [2:0]  carry;
    wire [63:0] cycles = {cycles3, cycles2, cycles1, cycles0};
    wire [79:0] info = {NUM_ARGS, NUM_PORTS, SIGNATURE, VERSION, "N", "L", "K"};

    always @(posedge clk) begin
        case (reply_code)
            R_ACK: reply_byte <= ACK;
            R_NAK: reply_byte <= NAK;
            R_INFO: reply_byte <= info[8 * reply_index +: 8];
            default: reply_byte <= cycles[8 * reply_index[2:0] +: 8];
        endcase
    end

    integer slot;
    always @(posedge clk) begin
        bus_we <= 1'b0;
        arg_we <= 1'b0;
        kernel_start <= 1'b0;
        tx_start <= 1'b0;
        byte_written <= 1'b0;
        byte_read <= 1'b0;
        // A written byte went out at the last edge, at the old address; a read byte was sent.
        if (bus_we || byte_read) bus_addr[COUNT_BITS-1:0] <= bus_addr[COUNT_BITS-1:0] + 1'b1;
        if (byte_written || byte_read) begin
            bytes_left <= bytes_left - 1'b1;
            bytes_zero <= bytes_left == {{(COUNT_BITS-1){1'b0}}, 1'b1};
        end
        // The cycle count of docs/timing.md: `start` is high in cycle 0, `done` in cycle N.
        // The count is the value in the cycle `done` is high, so that cycle does not count.
        if (kernel_start) begin
            cycles0 <= 16'd1;
            cycles1 <= 16'd0;
            cycles2 <= 16'd0;
            cycles3 <= 16'd0;
            carry <= 3'd0;
        end else begin
            if (running && !kernel_done) cycles0 <= cycles0 + 16'd1;
            carry[0] <= running && !kernel_done && &cycles0;
            cycles1 <= cycles1 + {15'd0, carry[0]};
            carry[1] <= carry[0] && &cycles1;
            cycles2 <= cycles2 + {15'd0, carry[1]};
            carry[2] <= carry[1] && &cycles2;
            cycles3 <= cycles3 + {15'd0, carry[2]};
        end
        if (running && kernel_done) begin
            running <= 1'b0;
            finished <= 1'b1;
        end
        case (state)
            S_CMD: if (rx_valid) begin
                command_w <= rx_data == "W";
                command_r <= rx_data == "R";
                command_a <= rx_data == "A";
                command_i <= rx_data == "I";
                command_s <= rx_data == "S";
                command_d <= rx_data == "D";
                command_c <= rx_data == "C";
                state <= S_DECODE;
            end
            S_DECODE: begin
                // Every command's reply, set whatever the command (a command that reads a
                // header or waits sets it again before replying): the command flags are
                // one-hot, and the priority chain below in front of `reply_code` was five LUT
                // levels (crc32's critical path at 60 MHz on the iCE40).
                reply_code <= command_i ? R_INFO : command_c ? R_CYCLES : command_s && !running ? R_ACK : R_NAK;
                if (command_w || command_r || command_a) begin
                    header_left <= 4'd9;
                    state <= S_HEADER;
                end else if (command_s) begin
                    if (!running) begin
                        kernel_start <= 1'b1;
                        running <= 1'b1;
                    end
                    state <= S_REPLY_LOAD;
                end else if (command_d) begin
                    state <= S_WAIT_DONE;
                end else begin
                    state <= S_REPLY_LOAD;
                end
            end
            S_HEADER: if (rx_valid) begin
                header_left <= header_left - 4'd1;
                if (header_left == 4'd1) state <= S_HEADER_DONE;
            end
            S_HEADER_DONE: begin
                // The header is complete: its first eight bytes are in their fields, the last
                // lands at the end of this cycle (an argument's top byte, which `arg_we`
                // follows by a cycle) and is the count's top byte in `rx_data`.
                bytes_left <= header_count[COUNT_BITS-1:0];
                bytes_zero <= header_count[COUNT_BITS-1:0] == {COUNT_BITS{1'b0}};
                if (command_w) begin
                    state <= S_WRITE;
                end else if (command_r) begin
                    if (running) begin
                        reply_code <= R_NAK;
                        state <= S_REPLY_LOAD;
                    end else begin
                        state <= S_READ;
                    end
                end else begin
                    arg_we <= !running;
                    reply_code <= running ? R_NAK : R_ACK;
                    state <= S_REPLY_LOAD;
                end
            end
            S_WRITE: begin
                if (bytes_zero) begin
                    reply_code <= running ? R_NAK : R_ACK;
                    state <= S_REPLY_LOAD;
                end else if (rx_valid && !byte_written) begin
                    // `bytes_zero` is a cycle late after a byte; the next one is a UART
                    // frame away.
                    bus_wbyte <= rx_data;
                    bus_we <= !running;
                    byte_written <= 1'b1;
                end
            end
            S_READ: begin
                if (bytes_zero) begin
                    state <= S_CMD;
                end else begin
                    state <= S_READ_LATCH;
                end
            end
            // The memories register `bus_addr` at the end of S_READ, read the word at the end
            // of S_READ_LATCH, register it at the end of S_READ_LATCH2 and its byte at the end
            // of S_READ_LATCH3 (kiln_board_mem.v: each was once a longest path).
            S_READ_LATCH: state <= S_READ_LATCH2;
            S_READ_LATCH2: state <= S_READ_LATCH3;
            S_READ_LATCH3: state <= S_READ_WAIT;
            S_READ_WAIT: begin
                if (!tx_busy) begin
                    tx_data <= bus_rbyte;
                    tx_start <= 1'b1;
                    state <= S_READ_SEND;
                end
            end
            S_READ_SEND: begin
                if (!tx_busy && !tx_start) begin
                    byte_read <= 1'b1;
                    state <= S_READ_NEXT;
                end
            end
            // The address and count advance at the end of this cycle; S_READ then sees the
            // new count, and the memories register the byte at the new address.
            S_READ_NEXT: state <= S_READ;
            S_REPLY_LOAD: begin
                case (reply_code)
                    R_ACK, R_NAK: reply_left <= 4'd1;
                    R_INFO: reply_left <= 4'd10;
                    default: reply_left <= 4'd8;
                endcase
                reply_index <= 4'd0;
                reply_empty <= 1'b0;
                // Through S_REPLY_WAIT (at least a cycle), so that `reply_byte` is the first byte.
                state <= S_REPLY_WAIT;
            end
            S_REPLY: begin
                if (reply_empty) begin
                    state <= S_CMD;
                end else if (!tx_busy) begin
                    tx_data <= reply_byte;
                    tx_start <= 1'b1;
                    reply_index <= reply_index + 4'd1;
                    reply_left <= reply_left - 4'd1;
                    reply_empty <= reply_left == 4'd1;
                    state <= S_REPLY_WAIT;
                end
            end
            S_REPLY_WAIT: begin
                if (!tx_busy && !tx_start) state <= S_REPLY;
            end
            default: begin
                if (!running) begin
                    reply_code <= R_ACK;
                    state <= S_REPLY_LOAD;
                end
            end
        endcase
        header_byte <= state == S_HEADER && rx_valid;
        header_slot <= 9'd1 << (header_left - 4'd1);  // 0 once no header byte is to come
        // An argument's bytes also land in the address and count, and a transfer's in the
        // argument: only the command's own fields are used.
        if (header_byte) begin
            if (header_slot[8]) begin
                bus_port <= rx_data;
                arg_index <= rx_data;
            end
            for (slot = 0; slot < 4; slot = slot + 1) begin
                if (header_slot[7 - slot]) begin
                    bus_addr[8 * slot +: 8] <= rx_data;
                    arg_value[8 * slot +: 8] <= rx_data;
                end
                if (header_slot[3 - slot]) arg_value[32 + 8 * slot +: 8] <= rx_data;
            end
            for (slot = 0; slot < 3; slot = slot + 1) begin
                if (header_slot[3 - slot]) count[8 * slot +: 8] <= rx_data;
            end
        end
        // The reset overrides only the registers whose value matters before a command sets
        // them: kept out of the data registers' logic, it is not in front of their enables,
        // where it was on the bridge's longest paths.
        if (rst_q) begin
            state <= S_CMD;
            running <= 1'b0;
            finished <= 1'b0;
            // 'C' before the first run answers 0.
            cycles0 <= 16'd0;
            cycles1 <= 16'd0;
            cycles2 <= 16'd0;
            cycles3 <= 16'd0;
            carry <= 3'd0;
            bus_we <= 1'b0;
            arg_we <= 1'b0;
            kernel_start <= 1'b0;
            tx_start <= 1'b0;
            byte_written <= 1'b0;
            byte_read <= 1'b0;
            header_byte <= 1'b0;
        end
    end
endmodule
