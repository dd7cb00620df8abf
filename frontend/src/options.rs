//! Compile options that change how source is read: language version, macros, include paths and
//! the floating-point relaxations that later passes consult.

use std::path::PathBuf;

/// The OpenCL C language version (`-cl-std=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum ClStd {
    Cl1_2,
    Cl2_0,
    #[default]
    Cl3_0,
}

impl ClStd {
    pub fn parse(s: &str) -> Option<ClStd> {
        match s.to_ascii_uppercase().as_str() {
            "CL1.2" => Some(ClStd::Cl1_2),
            "CL2.0" => Some(ClStd::Cl2_0),
            "CL3.0" => Some(ClStd::Cl3_0),
            _ => None,
        }
    }

    /// The value of `__OPENCL_C_VERSION__`.
    pub fn version_number(self) -> u32 {
        match self {
            ClStd::Cl1_2 => 120,
            ClStd::Cl2_0 => 200,
            ClStd::Cl3_0 => 300,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ClStd::Cl1_2 => "CL1.2",
            ClStd::Cl2_0 => "CL2.0",
            ClStd::Cl3_0 => "CL3.0",
        }
    }
}

/// The kernel language of a file: OpenCL C, or C++ for OpenCL (`-cl-std=CLC++`, `.clcpp` files),
/// which the `kiln-frontend-cxx` crate reads and lowers onto OpenCL C 2.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Language {
    #[default]
    OpenClC,
    Cxx,
}

/// Floating-point relaxations requested on the command line. kiln records them so the optimizer
/// can decide which float rewrites are legal; they do not change integer code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MathFlags {
    pub fast_relaxed_math: bool,
    pub unsafe_math_optimizations: bool,
    pub mad_enable: bool,
    pub finite_math_only: bool,
    pub no_signed_zeros: bool,
    pub denorms_are_zero: bool,
    pub single_precision_constant: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub std: ClStd,
    /// OpenCL C, or C++ for OpenCL (whose lowered program is checked as OpenCL C 2.0).
    pub language: Language,
    /// `-D NAME[=VALUE]` in command-line order; a missing value means `1`.
    pub defines: Vec<(String, Option<String>)>,
    /// `-U NAME`.
    pub undefines: Vec<String>,
    /// `-I DIR`, searched in order after the including file's own directory.
    pub include_dirs: Vec<PathBuf>,
    pub math: MathFlags,
    /// `--max-work-group-size N`: the `max_work_group_size` of every kernel that states
    /// neither it nor `reqd_work_group_size` (its hardware then takes the work-group size at
    /// run time, up to `N` work-items).
    pub max_work_group_size: Option<u32>,
}

impl Options {
    /// Parses one `-D` argument: `NAME` or `NAME=VALUE`.
    pub fn add_define(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some((n, v)) => self.defines.push((n.to_string(), Some(v.to_string()))),
            None => self.defines.push((arg.to_string(), None)),
        }
    }

    /// Applies a `-cl-*` flag. Returns false for an unknown flag.
    pub fn apply_cl_flag(&mut self, flag: &str) -> bool {
        let m = &mut self.math;
        match flag {
            "-cl-fast-relaxed-math" => {
                m.fast_relaxed_math = true;
                m.unsafe_math_optimizations = true;
                m.mad_enable = true;
                m.finite_math_only = true;
                m.no_signed_zeros = true;
            }
            "-cl-unsafe-math-optimizations" => {
                m.unsafe_math_optimizations = true;
                m.mad_enable = true;
                m.no_signed_zeros = true;
            }
            "-cl-mad-enable" => m.mad_enable = true,
            "-cl-finite-math-only" => m.finite_math_only = true,
            "-cl-no-signed-zeros" => m.no_signed_zeros = true,
            "-cl-denorms-are-zero" => m.denorms_are_zero = true,
            "-cl-single-precision-constant" => m.single_precision_constant = true,
            "-cl-opt-disable" | "-cl-strict-aliasing" | "-cl-kernel-arg-info" | "-w" | "-Werror" => {}
            _ => {
                if let Some(v) = flag.strip_prefix("-cl-std=") {
                    if is_cxx_std(v) {
                        self.language = Language::Cxx;
                        self.std = ClStd::Cl2_0;
                        return true;
                    }
                    match ClStd::parse(v) {
                        Some(s) => self.std = s,
                        None => return false,
                    }
                } else {
                    return false;
                }
            }
        }
        true
    }
}

/// The `-cl-std=` values that select C++ for OpenCL 1.0 (clang's spellings).
pub fn is_cxx_std(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "clc++" | "clc++1.0" | "c++")
}
