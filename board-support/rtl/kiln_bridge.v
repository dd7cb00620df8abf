// kiln host bridge: the command interpreter behind the UART (protocol in docs/board-bridge.md).
//
// Commands (host to board; multi-byte fields little-endian):
//   'I'                          -> 'K' 'L' 'N' VERSION SIGNATURE[4] NUM_PORTS NUM_ARGS
//   'W' port addr[4] count[4] data[count] -> ACK (NAK if the kernel is running: nothing written)
//   'R' port addr[4] count[4]    -> data[count] (NAK instead if the kernel is running)
//   'A' index value[8]           -> ACK (NAK if the kernel is running)
//   'S'                          -> ACK and the kernel starts (NAK if it is running)
//   'D'                          -> ACK once the kernel is not running
//   'C'                          -> cycles[8] of the last completed run
//   anything else                -> NAK
// Addresses and counts are in bytes of the selected buffer. The memory bus is byte-wide: a write
// is one byte at `bus_addr`; a read presents `bus_addr` and takes `bus_rbyte` one cycle later.
module kiln_bridge #(
    parameter [15:0] CLKS_PER_BIT = 16'd104,
    parameter [31:0] SIGNATURE = 32'h0,
    parameter [7:0] NUM_PORTS = 8'd0,
    parameter [7:0] NUM_ARGS = 8'd0
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
                     S_REPLY_LOAD = 4'd9;
    // Which reply S_REPLY_LOAD puts into `reply`. The command decoder only picks a code: loading
    // the 80-bit reply register straight from the decoder put the whole decode in front of that
    // register's enable, the bridge's longest path.
    localparam [1:0] R_ACK = 2'd0, R_NAK = 2'd1, R_INFO = 2'd2, R_CYCLES = 2'd3;

    wire [7:0] rx_data;
    wire       rx_valid;
    reg        tx_start;
    reg  [7:0] tx_data;
    wire       tx_busy;

    kiln_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) receiver (
        .clk(clk), .rst(rst), .rx(uart_rx), .data(rx_data), .valid(rx_valid)
    );
    kiln_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) transmitter (
        .clk(clk), .rst(rst), .start(tx_start), .data(tx_data), .tx(uart_tx), .busy(tx_busy)
    );

    reg [3:0]  state;
    // The command byte, decoded when it arrives.
    reg        command_w;
    reg        command_r;
    reg [1:0]  reply_code;
    reg [3:0]  header_left;
    reg [63:0] header;
    reg [31:0] bytes_left;
    // Reply bytes go out least significant first.
    // `bytes_left == 0`, kept in a register beside it: a 32-bit zero test in front of the state
    // decoder would be the bridge's longest path.
    reg        bytes_zero;
    reg [79:0] reply;
    reg [3:0]  reply_left;
    // The run's cycle counter in two halves, the upper one a cycle behind with its carry kept
    // apart: a 64-bit carry chain would limit the clock of small FPGAs.
    reg [31:0] cycles_low;
    reg [31:0] cycles_high;
    reg        cycles_carry;
    reg [63:0] last_cycles;

    always @(posedge clk) begin
        bus_we <= 1'b0;
        arg_we <= 1'b0;
        kernel_start <= 1'b0;
        tx_start <= 1'b0;
        if (rst) begin
            state <= S_CMD;
            command_w <= 1'b0;
            command_r <= 1'b0;
            reply_code <= R_ACK;
            header_left <= 4'd0;
            header <= 64'd0;
            bytes_left <= 32'd0;
            bytes_zero <= 1'b1;
            reply <= 80'd0;
            reply_left <= 4'd0;
            bus_port <= 8'd0;
            bus_addr <= 32'd0;
            bus_wbyte <= 8'd0;
            arg_index <= 8'd0;
            arg_value <= 64'd0;
            tx_data <= 8'd0;
            running <= 1'b0;
            finished <= 1'b0;
            cycles_low <= 32'd0;
            cycles_high <= 32'd0;
            cycles_carry <= 1'b0;
            last_cycles <= 64'd0;
        end else begin
            // The cycle count of docs/timing.md: `start` is high in cycle 0, `done` in cycle N.
            if (kernel_start) begin
                cycles_low <= 32'd1;
                cycles_high <= 32'd0;
                cycles_carry <= 1'b0;
            end else if (running) begin
                cycles_low <= cycles_low + 32'd1;
                cycles_carry <= &cycles_low;
                cycles_high <= cycles_high + {31'd0, cycles_carry};
            end
            if (running && kernel_done) begin
                running <= 1'b0;
                finished <= 1'b1;
                last_cycles <= {cycles_high + {31'd0, cycles_carry}, cycles_low};
            end
            case (state)
                S_CMD: if (rx_valid) begin
                    command_w <= rx_data == "W";
                    command_r <= rx_data == "R";
                    case (rx_data)
                        "W", "R", "A": begin
                            header_left <= 4'd9;
                            state <= S_HEADER;
                        end
                        "I": begin
                            reply_code <= R_INFO;
                            state <= S_REPLY_LOAD;
                        end
                        "S": begin
                            reply_code <= running ? R_NAK : R_ACK;
                            if (!running) begin
                                kernel_start <= 1'b1;
                                running <= 1'b1;
                            end
                            state <= S_REPLY_LOAD;
                        end
                        "D": state <= S_WAIT_DONE;
                        "C": begin
                            reply_code <= R_CYCLES;
                            state <= S_REPLY_LOAD;
                        end
                        default: begin
                            reply_code <= R_NAK;
                            state <= S_REPLY_LOAD;
                        end
                    endcase
                end
                S_HEADER: if (rx_valid) begin
                    header <= {rx_data, header[63:8]};
                    header_left <= header_left - 4'd1;
                    if (header_left == 4'd1) begin
                        // The header is complete: the first eight bytes are in `header`, the last is `rx_data`.
                        bus_port <= header[7:0];
                        bus_addr <= header[39:8];
                        bytes_left <= {rx_data, header[63:40]};
                        bytes_zero <= {rx_data, header[63:40]} == 32'd0;
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
                            arg_index <= header[7:0];
                            arg_value <= {rx_data, header[63:8]};
                            arg_we <= !running;
                            reply_code <= running ? R_NAK : R_ACK;
                            state <= S_REPLY_LOAD;
                        end
                    end
                end
                S_WRITE: begin
                    if (bytes_zero) begin
                        reply_code <= running ? R_NAK : R_ACK;
                        state <= S_REPLY_LOAD;
                    end else if (rx_valid) begin
                        bus_wbyte <= rx_data;
                        bus_we <= !running;
                        bytes_left <= bytes_left - 32'd1;
                        bytes_zero <= bytes_left == 32'd1;
                    end
                    // The write of the previous cycle used the old address; advance after it.
                    if (bus_we) bus_addr <= bus_addr + 32'd1;
                end
                S_READ: begin
                    if (bytes_zero) begin
                        state <= S_CMD;
                    end else begin
                        state <= S_READ_WAIT;
                    end
                end
                S_READ_WAIT: begin
                    // The memories registered the byte at `bus_addr` at the last edge.
                    if (!tx_busy) begin
                        tx_data <= bus_rbyte;
                        tx_start <= 1'b1;
                        state <= S_READ_SEND;
                    end
                end
                S_READ_SEND: begin
                    if (!tx_busy && !tx_start) begin
                        bus_addr <= bus_addr + 32'd1;
                        bytes_left <= bytes_left - 32'd1;
                        bytes_zero <= bytes_left == 32'd1;
                        state <= S_READ;
                    end
                end
                S_REPLY_LOAD: begin
                    case (reply_code)
                        R_ACK: begin
                            reply <= {72'd0, ACK};
                            reply_left <= 4'd1;
                        end
                        R_NAK: begin
                            reply <= {72'd0, NAK};
                            reply_left <= 4'd1;
                        end
                        R_INFO: begin
                            reply <= {NUM_ARGS, NUM_PORTS, SIGNATURE, VERSION, "N", "L", "K"};
                            reply_left <= 4'd10;
                        end
                        default: begin
                            reply <= {16'd0, last_cycles};
                            reply_left <= 4'd8;
                        end
                    endcase
                    state <= S_REPLY;
                end
                S_REPLY: begin
                    if (reply_left == 4'd0) begin
                        state <= S_CMD;
                    end else if (!tx_busy) begin
                        tx_data <= reply[7:0];
                        tx_start <= 1'b1;
                        reply <= {8'd0, reply[79:8]};
                        reply_left <= reply_left - 4'd1;
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
        end
    end
endmodule
