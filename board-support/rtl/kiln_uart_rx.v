// kiln host bridge: UART receiver, 8 data bits, no parity, one stop bit (8N1).
// `valid` is high for one cycle with each received byte. The line is synchronized through two
// flip-flops; each bit is sampled in its middle. A start bit that does not last half a bit time
// is treated as a glitch and ignored.
module kiln_uart_rx #(
    parameter [15:0] CLKS_PER_BIT = 16'd104
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       rx,
    output reg  [7:0] data,
    output reg        valid
);
    localparam IDLE = 2'd0, START = 2'd1, BITS = 2'd2, STOP = 2'd3;
    localparam [15:0] HALF_BIT = CLKS_PER_BIT / 16'd2;
    localparam [15:0] LAST = CLKS_PER_BIT - 16'd1;
    reg        rx_meta;
    reg        rx_sync;
    reg [1:0]  state;
    // Cycles left until the next sample, counting down, and `left == 0` in a register beside
    // it: comparing an up-counter with the bit time in front of every enable of the receiver
    // was the bridge's longest path.
    reg [15:0] left;
    reg        due;
    reg [2:0]  bit_index;
    reg [7:0]  shift;

    always @(posedge clk) begin
        rx_meta <= rx;
        rx_sync <= rx_meta;
        valid <= 1'b0;
        if (!due) begin
            left <= left - 16'd1;
            due <= left == 16'd1;
        end
        case (state)
            IDLE: if (!rx_sync) begin
                // The start bit is sampled HALF_BIT cycles after the next one, in its middle.
                left <= HALF_BIT;
                due <= HALF_BIT == 16'd0;
                state <= START;
            end
            START: if (due) begin
                left <= LAST;
                due <= LAST == 16'd0;
                bit_index <= 3'd0;
                state <= rx_sync ? IDLE : BITS;
            end
            BITS: if (due) begin
                left <= LAST;
                due <= LAST == 16'd0;
                shift <= {rx_sync, shift[7:1]};
                if (bit_index == 3'd7) state <= STOP;
                bit_index <= bit_index + 3'd1;
            end
            default: if (due) begin
                state <= IDLE;
                if (rx_sync) begin
                    data <= shift;
                    valid <= 1'b1;
                end
            end
        endcase
        if (rst) begin
            rx_meta <= 1'b1;
            rx_sync <= 1'b1;
            state <= IDLE;
            valid <= 1'b0;
        end
    end
endmodule
