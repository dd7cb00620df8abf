//! The registry of stable diagnostic codes.
//!
//! A code never changes meaning once released; tests assert on codes, never on message text.
//! `E` codes are errors, `W` warnings and `N` notes. Ranges: `0xxx` driver, `01xx` lexing and
//! preprocessing, `02xx` syntax, `03xx` names and types, `04xx` OpenCL C language rules, `05xx`
//! features kiln does not (yet) turn into hardware, `06xx` lowering to hardware, `07xx`
//! scheduling, `08xx` run specs, `09xx` run-time errors of emulation, simulation and co-simulation,
//! `10xx` boards, `11xx` C++ for OpenCL.

/// A stable diagnostic code such as `E0301`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(pub &'static str);

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

macro_rules! define_codes {
    ($($name:ident = $code:literal : $desc:literal,)*) => {
        $(#[doc = $desc] pub const $name: Code = Code($code);)*
        /// Every registered code with its one-line description, in code order.
        pub const ALL: &[(Code, &str)] = &[$(($name, $desc),)*];
    };
}

define_codes! {
    // Driver and input.
    IO_READ = "E0001": "an input file cannot be read",
    UNKNOWN_KERNEL = "E0002": "the requested kernel does not exist in the file",
    NO_KERNEL = "E0003": "the file defines no kernel",
    BAD_OPTION = "E0004": "a command-line option has an invalid value",
    IO_WRITE = "E0005": "an output file cannot be written",
    INTERNAL_ERROR = "E0006": "internal compiler error: a stage of kiln produced invalid output (a kiln bug; the message names the stage)",

    // Lexing and preprocessing.
    INVALID_CHAR = "E0101": "a character that cannot start any OpenCL C token",
    UNTERMINATED_COMMENT = "E0102": "a block comment is not closed before the end of the file",
    UNTERMINATED_LITERAL = "E0103": "a string or character literal is not closed on its line",
    INCLUDE_NOT_FOUND = "E0104": "an #include names a file that is not found (OpenCL C has no system headers)",
    ERROR_DIRECTIVE = "E0105": "an #error directive was reached",
    BAD_DIRECTIVE = "E0106": "an unknown or malformed preprocessor directive",
    UNTERMINATED_IF = "E0107": "an #if/#ifdef/#ifndef without a matching #endif",
    UNMATCHED_CONDITIONAL = "E0108": "#else, #elif or #endif without a matching #if",
    BAD_IF_EXPR = "E0109": "an #if/#elif expression that cannot be evaluated",
    MACRO_ARG_COUNT = "E0110": "a function-like macro invoked with the wrong number of arguments",
    UNTERMINATED_MACRO_CALL = "E0111": "a function-like macro invocation is not closed",
    BAD_MACRO_DEF = "E0112": "a malformed #define",
    BAD_PASTE = "E0113": "`#` or `##` used incorrectly, or `##` producing an invalid token",
    INCLUDE_DEPTH = "E0114": "#include nested too deeply (probably recursive)",
    VARIADIC_MACRO_VERSION = "E0115": "variadic macros need OpenCL C 3.0",
    BAD_OPENCL_PRAGMA = "E0116": "a malformed `#pragma OPENCL` directive",
    EXTENSION_UNSUPPORTED = "E0117": "`#pragma OPENCL EXTENSION ... : enable` of an extension kiln does not support, or `all : enable`",
    BAD_LINE_DIRECTIVE = "E0118": "a malformed #line directive",
    UNKNOWN_PRAGMA = "N0101": "a #pragma kiln does not know is ignored",
    MACRO_REDEFINED = "W0102": "a macro is redefined with a different body",
    EXTENSION_DISABLE_UNKNOWN = "W0103": "`#pragma OPENCL EXTENSION ... : disable` of an extension kiln does not know",

    // Syntax.
    EXPECTED_TOKEN = "E0201": "a token required by the grammar is missing",
    EXPECTED_EXPR = "E0202": "an expression is expected",
    EXPECTED_TYPE = "E0203": "a type or declaration is expected",
    BAD_DECLARATOR = "E0204": "a malformed declarator",
    BAD_LITERAL = "E0205": "a malformed or out-of-range literal",
    UNEXPECTED_EOF = "E0206": "the file ends inside a construct",
    RESERVED_IDENT = "E0207": "a keyword or reserved word used as an identifier",
    BAD_ATTRIBUTE = "E0208": "a malformed attribute",
    PARTITION_REDUCED = "W0211": "an array partition into more banks than kiln builds, built with fewer (a divisor of the count asked for)",
    BAD_PRAGMA_ARG = "E0209": "a loop pragma with a malformed argument",
    PRAGMA_NOT_BEFORE_LOOP = "E0210": "a loop pragma or loop attribute that is not immediately followed by a loop",

    // Names and types.
    UNDECLARED = "E0301": "use of an undeclared identifier",
    REDEFINITION = "E0302": "a name is defined twice in the same scope",
    TYPE_MISMATCH = "E0303": "a value of one type is used where an incompatible type is required",
    BAD_OPERANDS = "E0304": "an operator applied to operands of types it does not accept",
    NOT_LVALUE = "E0305": "an assignment, increment or address-of applied to something that is not an l-value",
    ASSIGN_CONST = "E0306": "a write to a const-qualified object",
    ARG_COUNT = "E0307": "a call with the wrong number of arguments",
    IMPLICIT_DECL = "E0308": "a call to a function that is not declared (implicit declarations are not allowed in OpenCL C)",
    NOT_CALLABLE = "E0309": "a call of something that is not a function",
    BAD_CAST = "E0310": "a cast between types that cannot be converted",
    BAD_SUBSCRIPT = "E0311": "a subscript of something that is not an array or pointer",
    BAD_DEREF = "E0312": "`*` or `->` applied to something that is not a pointer",
    BAD_INITIALIZER = "E0313": "an initializer that does not fit the declared object",
    NOT_CONSTANT = "E0314": "an expression that must be a compile-time constant is not",
    BREAK_OUTSIDE = "E0315": "`break` or `continue` outside a loop or switch",
    BAD_RETURN = "E0316": "a `return` whose value does not match the function's return type",
    DUPLICATE_CASE = "E0317": "two `case` labels with the same value, or two `default` labels",
    INCOMPLETE_TYPE = "E0318": "use of an incomplete struct, union or array type",
    NO_MEMBER = "E0319": "a member that the struct or union does not have",
    BAD_ARRAY_SIZE = "E0320": "an array size that is not a positive integer constant",
    CONST_DIV_ZERO = "E0321": "division by zero in a constant expression",
    VOID_USE = "E0322": "a value of type void used as a value",
    CONFLICTING_DECL = "E0323": "two declarations of the same name with different types",
    BAD_SPECIFIERS = "E0324": "an invalid combination of type specifiers or qualifiers",
    MISSING_RETURN = "W0325": "a non-void function can reach its end without returning a value (kiln returns 0)",
    UNDEFINED_FUNCTION = "E0326": "a function that is declared and called but never defined",
    CASE_OUTSIDE_SWITCH = "E0327": "a `case` or `default` label outside a `switch`",
    UNKNOWN_ATTRIBUTE = "W0328": "an attribute kiln does not know is ignored",
    DISCARDS_QUALIFIERS = "W0329": "a pointer conversion that discards `const` or `volatile`",
    DOUBLE_LITERAL = "W0330": "an unsuffixed floating literal (a `double` in OpenCL C) used as a `float`, because kiln's device has no `double`",
    CONSTANT_RANK = "W0331": "an `int` constant operand of a vector operator whose type outranks the element type, converted because its value fits",
    PRINTF_FORMAT = "E0332": "a `printf` whose format is not a string literal, is malformed, or does not match its arguments",
    BUILTIN_ARGS = "E0330": "a built-in function called with argument types that no overload accepts, or that several accept equally (ambiguous)",

    // OpenCL C language rules.
    RECURSION = "E0401": "recursion (OpenCL C forbids recursive calls)",
    FUNCTION_POINTER = "E0402": "a pointer to a function (not allowed in OpenCL C)",
    VLA = "E0403": "a variable-length array (not allowed in OpenCL C)",
    BIT_FIELD = "E0404": "a bit-field struct member (not allowed in OpenCL C)",
    VARIADIC_FUNCTION = "E0405": "a user-defined variadic function (not allowed in OpenCL C)",
    MAIN_FUNCTION = "E0406": "a function named `main` (not allowed in OpenCL C)",
    KERNEL_RETURN = "E0407": "a kernel function that does not return void",
    KERNEL_ARG = "E0408": "a kernel parameter of a type OpenCL C does not allow",
    ADDRESS_SPACE = "E0409": "an address-space qualifier used where OpenCL C does not allow it",
    CONSTANT_RULE = "E0410": "a `__constant` object without an initializer, or a write to `__constant` memory",
    PROGRAM_SCOPE_GLOBAL = "W0427": "a program-scope `__global` variable: kiln keeps it in on-chip memory of each kernel that uses it, from its initializer at every launch (FPGA vendors' compilers reject it)",
    PROGRAM_SCOPE_VAR = "E0411": "a program-scope variable that is not in the `__constant` address space",
    RESERVED_TYPE = "E0412": "a type name reserved by OpenCL C (`long long`, `complex`, `float5`, ...)",
    HALF_TYPE = "E0413": "arithmetic on `half` without `cl_khr_fp16`",
    DOUBLE_TYPE = "E0414": "`double` without `cl_khr_fp64`",
    POINTER_CONVERSION = "E0415": "a pointer conversion between address spaces or pointee types that is not allowed",
    STORAGE_CLASS = "E0416": "a storage class OpenCL C does not allow here (`register`, `auto`, ...)",
    BAD_SWIZZLE = "E0417": "an invalid vector component selection",
    VECTOR_CONVERSION = "E0418": "an implicit conversion between vector types, or a vector of the wrong size",
    OPERATOR_TYPE = "E0419": "an operator that OpenCL C does not allow on this type (`++` on float, shift of a float, ...)",
    RESERVED_OPERATOR = "E0420": "a reserved operator (`^^`)",
    UNROLL_HINT = "E0421": "an invalid loop attribute or pragma argument (negative, zero or not constant)",
    ATTRIBUTE_PLACEMENT = "E0422": "an attribute used on something it cannot apply to",
    WORK_GROUP_SIZE = "E0423": "an invalid `reqd_work_group_size`",
    ATOMIC_RULE = "E0424": "an atomic object used other than through the atomic built-in functions (an operator, assignment or initializer on it), `_Atomic` of a type with no atomic form, or an atomic built-in given a pointer to memory it cannot update, or an atomic variable in private memory",
    HALF_VALUE = "E0426": "a `half` value without `cl_khr_fp16`: `half` is storage-only — it may only be pointed to, and read and written with `vload_half`/`vstore_half`",
    PIPE_RULE = "E0425": "a pipe or channel used against the rules: an operator on it, a `read_write` pipe, a read of a `write_only` pipe (or the reverse), a pipe outside a kernel parameter or program-scope declaration, a packet type that is not a scalar or vector",

    // Not supported (yet) in hardware.
    NOT_ON_FPGA = "E0501": "a feature with no FPGA meaning (images, samplers, device-side enqueue, blocks)",
    UNSUPPORTED_FLOAT = "E0502": "floating point kiln does not build: arithmetic on `float` (and `half` conversions) in hardware (the emulator runs it), `double`, `halfN` types",
    UNSUPPORTED_VECTOR = "E0503": "a use of vector types kiln does not yet build (the address of a vector parameter of a helper function)",
    UNSUPPORTED_NDRANGE = "E0504": "a work-item function kiln cannot build (sub-group and linear-id functions, or a dimension that is not a compile-time constant)",
    UNSUPPORTED_BARRIER = "E0505": "a synchronization function kiln does not yet support (sub-group barriers)",
    UNSUPPORTED_PIPE = "E0506": "a use of pipes kiln does not build yet (work-group and sub-group reservations, reservations of a non-constant or varying number of packets, pipes of structs, pipe parameters of helper functions, a channel-array index that is not constant after unrolling)",
    UNSUPPORTED_ATOMIC = "E0507": "retired: the atomic functions are supported since kiln builds them as read-modify-writes at the memory (float atomics report E0502; kept so the code stays stable)",
    UNSUPPORTED_AGGREGATE = "E0508": "a use of structs or unions kiln does not build yet (pointers to private or `__local` structs, struct kernel arguments and return values, unions of members of different shapes)",
    UNSUPPORTED_LOCAL = "E0509": "retired: `__local` pointer kernel arguments are supported since kiln builds a `__local` memory behind each (kept so the code stays stable)",
    UNSUPPORTED_POINTER_CAST = "E0510": "reinterpreting a pointer as another pointee type is not yet supported by kiln",
    UNSUPPORTED_BUILTIN = "E0511": "a built-in function kiln does not yet support",
    UNSUPPORTED_WORK_GROUP = "E0512": "retired: work-group sizes other than (1,1,1) are supported since NDRange kernels (kept so the code stays stable)",
    UNSUPPORTED_STRING = "E0513": "string literals are not yet supported by kiln",
    UNSUPPORTED_CASE_NESTING = "E0514": "a `case` label nested inside another statement of its `switch` (Duff's device)",
    UNSUPPORTED_GOTO = "E0515": "a `goto` kiln cannot build: one that jumps backward or into a block (forward jumps to a label in an enclosing block are built)",

    // Lowering to hardware.
    AMBIGUOUS_POINTER = "E0601": "a pointer that may refer to more than one memory",
    POINTER_ESCAPE = "E0602": "a pointer stored to memory or otherwise used in a way hardware cannot follow",
    MEMORY_TOO_LARGE = "E0603": "an on-chip array larger than kiln can build",
    UNINITIALIZED_USE = "W0604": "a variable may be used before it is assigned (kiln uses 0)",
    NEEDS_GROUP_SIZE = "E0605": "an NDRange kernel that needs a static work-group size has none (no `reqd_work_group_size`, `--local-size` or run-spec `local_size`)",
    NON_UNIFORM_BARRIER = "E0606": "a barrier kiln cannot place in a work-group phase (in non-uniform control flow, a called function, or an expression)",
    PRINTF_IN_HARDWARE = "W0608": "`printf` has no output in hardware: a bitstream drops it (`kiln emu`, `sim` and `cosim` print it)",
    GROUP_SIZE_MISMATCH = "E0607": "a launch whose work-group size disagrees with the kernel's, or whose global size is not a multiple of it",

    // Scheduling.
    SCHEDULE_FAILED = "E0701": "no schedule satisfies the constraints",

    // Run specs.
    SPEC_PARSE = "E0801": "the run spec is not valid TOML or has an unknown field",
    SPEC_MISSING_ARG = "E0802": "a kernel parameter has no entry in the run spec",
    SPEC_EXTRA_ARG = "E0803": "the run spec names an argument the kernel does not have",
    SPEC_BAD_ARG = "E0804": "a run-spec argument has the wrong shape for its parameter",
    SPEC_BAD_FILL = "E0805": "an invalid fill description (min > max, unknown fill, ...)",
    SPEC_BAD_LAUNCH = "E0806": "an invalid launch description (global or local size)",
    SPEC_PIPE = "E0807": "a system's pipes are not connected from exactly one writer kernel to one reader kernel, or a `@name` argument names no `[buffers]` or `[pipes]` entry",

    // Run time.
    OUT_OF_BOUNDS = "E0901": "a memory access outside its buffer",
    CYCLE_LIMIT = "E0902": "the run exceeded its cycle (or step) limit",
    ENGINE_MISMATCH = "E0903": "two engines disagree on outputs or cycles",
    TOOL_FAILED = "E0904": "an external tool (Verilator, a C++ compiler) is missing or failed",
    UNINITIALIZED_READ = "E0905": "a read of a private array element that was never written",
    DEADLOCK = "E0906": "the kernels of a system wait on pipes and none can move (a deadlock), or a kernel waits on a pipe nothing is connected to",
    READ_WRITE_COLLISION = "E0907": "the schedule reads and writes one element of an on-chip memory in the same cycle (a kiln bug: block RAMs differ in what such a read returns, and kiln builds its memories for schedules without it)",

    // C++ for OpenCL (the `kiln-frontend-cxx` front end).
    CXX_FORBIDDEN = "E1101": "a C++ feature the OpenCL C++ kernel language forbids (virtual functions, exceptions, RTTI, `new`/`delete`, recursion, function pointers, `thread_local`); the message cites the rule",
    CXX_OVERLOAD = "E1102": "a call no overload accepts, or that two overloads accept equally well (ambiguous)",
    CXX_TEMPLATE = "E1103": "template arguments that cannot be deduced, do not fit the template's parameters, or name no template",
    CXX_STATIC_ASSERT = "E1104": "a `static_assert` whose condition is false",
    CXX_CONSTEXPR = "E1105": "an expression that must be a constant expression (a template argument, an array bound, a `static_assert`, a `constexpr` variable) that cannot be evaluated at compile time",
    CXX_UNSUPPORTED = "E1106": "a C++ construct kiln does not build yet (the message names it)",
    CXX_REFERENCE = "E1107": "a reference bound to what it cannot bind to (a non-const reference to a temporary, a reference without an initializer)",
    CXX_ACCESS = "E1108": "a private or protected member used outside its class",
    CXX_NOT_A_TYPE = "E1109": "a name used as a type, namespace or template that is not one",
    CXX_CONSTRUCTOR = "E1110": "an object initialized with arguments no constructor of its class takes",
    CXX_NARROWING = "E1111": "a narrowing conversion in a braced initializer (`int` to `float`, `long` to `int`, ... of a value that is not a constant that fits)",

    // Boards.
    UNKNOWN_BOARD = "E1001": "no board of that name (`kiln bitstream --board`)",
    BOARD_MEMORY = "E1002": "the kernel's buffers or memories do not fit the board's RAM",
    BOARD_CLOCK = "E1003": "the board cannot make the requested kernel clock",
    BOARD_FLOW = "E1004": "synthesis, place and route or packing failed, or a flow tool is missing",
    BOARD_LINK = "E1005": "the host bridge on the board (or its simulation) failed or answered wrongly",
    BOARD_KERNEL = "E1006": "the kernel cannot be put on a board as it is (choice of kernel, element widths)",
}

/// The description of a code, if it is registered.
pub fn describe(code: &str) -> Option<&'static str> {
    ALL.iter().find(|(c, _)| c.0 == code).map(|(_, d)| *d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::BTreeSet::new();
        for (c, d) in ALL {
            assert!(seen.insert(c.0), "duplicate code {}", c.0);
            assert_eq!(c.0.len(), 5, "{}", c.0);
            assert!(matches!(c.0.as_bytes()[0], b'E' | b'W' | b'N'), "{}", c.0);
            assert!(c.0[1..].bytes().all(|b| b.is_ascii_digit()), "{}", c.0);
            assert!(!d.is_empty());
        }
    }
}
