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
    reg [15:0] count;
    reg [2:0]  bit_index;
    reg [7:0]  shift;

    always @(posedge clk) begin
        rx_meta <= rx;
        rx_sync <= rx_meta;
        valid <= 1'b0;
        if (rst) begin
            rx_meta <= 1'b1;
            rx_sync <= 1'b1;
            state <= IDLE;
            count <= 16'd0;
            bit_index <= 3'd0;
            shift <= 8'd0;
            data <= 8'd0;
        end else begin
            case (state)
                IDLE: begin
                    count <= 16'd0;
                    if (!rx_sync) state <= START;
                end
                START: begin
                    if (count == HALF_BIT) begin
                        count <= 16'd0;
                        bit_index <= 3'd0;
                        state <= rx_sync ? IDLE : BITS;
                    end else begin
                        count <= count + 16'd1;
                    end
                end
                BITS: begin
                    if (count == LAST) begin
                        count <= 16'd0;
                        shift <= {rx_sync, shift[7:1]};
                        if (bit_index == 3'd7) state <= STOP;
                        bit_index <= bit_index + 3'd1;
                    end else begin
                        count <= count + 16'd1;
                    end
                end
                default: begin
                    if (count == LAST) begin
                        count <= 16'd0;
                        state <= IDLE;
                        if (rx_sync) begin
                            data <= shift;
                            valid <= 1'b1;
                        end
                    end else begin
                        count <= count + 16'd1;
                    end
                end
            endcase
        end
    end
endmodule
