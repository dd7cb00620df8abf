// kiln host bridge: UART transmitter, 8N1. `start` may rise only while `busy` is low, for one
// cycle (the bridge's contract); `busy` rises at the edge that accepts the byte and falls after
// the stop bit.
module kiln_uart_tx #(
    parameter [15:0] CLKS_PER_BIT = 16'd104
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       start,
    input  wire [7:0] data,
    output reg        tx,
    output reg        busy
);
    localparam [15:0] LAST = CLKS_PER_BIT - 16'd1;
    reg [15:0] count;
    // `count == LAST`, a register: the 16-bit comparison in front of every enable of the
    // transmitter was the bridge's longest path.
    reg        count_last;
    reg [3:0]  bit_index;
    // `bit_index == 9` (the stop bit is on the line), a register: with the 4-bit comparison in
    // the frame's enable, that was the board top's longest path (fir at 60 MHz on the iCE40,
    // 17.4 ns from `busy`).
    reg        on_stop_bit;
    // The eight data bits (LSB first) and the stop bit still to send; the start bit is sent
    // when the byte is taken.
    reg [8:0]  frame;

    always @(posedge clk) begin
        // The bridge raises `start` for one cycle and only while `busy` is low, and `count_last`
        // is low while idle (the count stops at zero after the stop bit), so the enables of the
        // frame and the counters need no `busy`: the frame's is `start | count_last &
        // ~on_stop_bit`, one LUT. Built from `busy` as well, synthesis merged it with the
        // bridge's logic into four LUT levels (symm's critical path at 60 MHz on the iCE40).
        if (start) begin
            frame <= {1'b1, data};
            count <= 16'd0;
            count_last <= LAST == 16'd0;
            bit_index <= 4'd0;
            on_stop_bit <= 1'b0;
        end else if (count_last) begin
            count <= 16'd0;
            count_last <= LAST == 16'd0;
            if (!on_stop_bit) begin
                // The frame shifts out: the next bit is always at index 0 (a wire, where
                // indexing by the bit count was an adder and a 10-way multiplexer).
                bit_index <= bit_index + 4'd1;
                on_stop_bit <= bit_index == 4'd8;
                frame <= {1'b1, frame[8:1]};
            end
        end else if (busy) begin
            count <= count + 16'd1;
            count_last <= count == LAST - 16'd1;
        end
        // The line and `busy` are the only registers the reset clears: the others are loaded
        // when a byte is taken, and a reset term in their enables (the iCE40's set/reset
        // flip-flops act only when enabled) made them five-input functions that synthesis
        // shared with the bridge's logic.
        if (rst) begin
            tx <= 1'b1;
            busy <= 1'b0;
        end else if (!busy) begin
            tx <= !start;
            busy <= start;
        end else if (count_last) begin
            tx <= on_stop_bit || frame[0];
            busy <= !on_stop_bit;
        end
    end
endmodule
