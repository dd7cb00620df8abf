// A switch-based state machine that counts "words" and "numbers" in a byte stream.
enum State { SPACE, WORD, NUMBER };
kernel void tokenize(global const uchar *text, global int *counts, int n) {
    enum State st = SPACE;
    int words = 0, numbers = 0, transitions = 0;
    for (int i = 0; i < n; i++) {
        uchar c = text[i];
        int is_digit = c >= '0' && c <= '9';
        int is_alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        enum State next;
        switch (st) {
        case SPACE:
            next = is_digit ? NUMBER : is_alpha ? WORD : SPACE;
            if (next == WORD) words++;
            if (next == NUMBER) numbers++;
            break;
        case WORD:
            next = (is_alpha || is_digit) ? WORD : SPACE;
            break;
        default:
            next = is_digit ? NUMBER : SPACE;
            break;
        }
        if (next != st) transitions++;
        st = next;
    }
    counts[0] = words;
    counts[1] = numbers;
    counts[2] = transitions;
}
