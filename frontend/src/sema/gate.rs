//! Feature gates: the language features kiln parses but cannot build yet, and those with no
//! meaning on an FPGA. Each gate reports a stable code at the first place the feature is written.
//! As later stages learn a feature, its gate moves out of here.

use super::Sema;
use crate::ast::{self, TypeWord};
use crate::diag::{Diagnostic, codes};
use crate::types::{Opaque, Scalar, Type};

impl Sema<'_> {
    pub(super) fn gate_double(&mut self, name: &str, span: crate::source::Span) {
        self.err(
            Diagnostic::error(codes::UNSUPPORTED_FLOAT, format!("`{name}` is not supported by kiln"))
                .at(span)
                .with_note("kiln's device has no `cl_khr_fp64`: `double` has no hardware on the FPGAs kiln targets")
                .with_help("use `float`"),
        );
    }

    /// `halfN` vector types need `cl_khr_fp16`, which kiln's device does not have.
    pub(super) fn gate_half(&mut self, name: &str, span: crate::source::Span) {
        self.err(
            Diagnostic::error(codes::UNSUPPORTED_FLOAT, format!("`{name}` is not supported by kiln"))
                .at(span)
                .with_note("`halfN` needs `cl_khr_fp16`, which kiln's device does not have")
                .with_help("point to `half` data and read and write it with `vload_halfN`/`vstore_halfN`"),
        );
    }

    /// Refuses an object or value of `half` type (`half` is storage-only without
    /// `cl_khr_fp16`: only pointers to it). Returns whether it did.
    pub(super) fn refuse_half(&mut self, ty: &Type, what: &str, span: crate::source::Span) -> bool {
        // `halfN` names are refused where they are written (`gate_half`).
        fn holds_half(ty: &Type) -> bool {
            match ty {
                Type::Scalar(Scalar::F16) => true,
                Type::Array(inner, _) => holds_half(inner),
                _ => false,
            }
        }
        if !holds_half(ty) {
            return false;
        }
        self.err(
            Diagnostic::error(
                codes::HALF_VALUE,
                format!("{what} of type `{}` is not allowed without `cl_khr_fp16`", self.show(ty)),
            )
            .at(span)
            .with_note("`half` is storage-only: declare pointers to `half` data")
            .with_help(
                "read it with `vload_half(offset, p)` (a `float`) and write it with `vstore_half(value, offset, p)`",
            ),
        );
        true
    }

    /// Reports unsupported types named by declaration specifiers.
    pub(super) fn gate_specs(&mut self, specs: &ast::DeclSpecs) {
        match &specs.ty {
            ast::TypeSpec::Words(words) => {
                for (w, span) in words {
                    if *w == TypeWord::Double {
                        self.gate_double("double", *span);
                    }
                }
            }
            ast::TypeSpec::Named(name, span) => {
                if self.lookup(name).is_some() {
                    return; // a typedef: gated where it was declared
                }
                match self.builtin_type(name) {
                    Some(Type::Vector(Scalar::F64, _) | Type::Atomic(Scalar::F64)) => self.gate_double(name, *span),
                    Some(Type::Vector(Scalar::F16, _)) => self.gate_half(name, *span),
                    Some(Type::Atomic(Scalar::F32)) => self.err(
                        Diagnostic::error(codes::UNSUPPORTED_FLOAT, format!("`{name}` is not yet supported by kiln"))
                            .at(*span)
                            .with_note("kiln builds atomics on integers"),
                    ),
                    Some(Type::Opaque(
                        Opaque::Image(_) | Opaque::Sampler | Opaque::Queue | Opaque::ClkEvent | Opaque::NdRange,
                    )) => self.err(
                        Diagnostic::error(codes::NOT_ON_FPGA, format!("`{name}` is not supported on FPGA targets"))
                            .at(*span)
                            .with_note("images, samplers and device-side enqueue have no hardware meaning in kiln"),
                    ),
                    Some(Type::Opaque(Opaque::ReserveId | Opaque::Event)) => {}
                    Some(Type::Opaque(_)) => self.err(
                        Diagnostic::error(codes::UNSUPPORTED_BUILTIN, format!("`{name}` is not yet supported by kiln"))
                            .at(*span),
                    ),
                    _ => {}
                }
            }
            ast::TypeSpec::Struct(r) | ast::TypeSpec::Union(r) => {
                // Bit-fields are an OpenCL C language error, whatever kiln supports.
                for f in r.fields.iter().flatten() {
                    for (d, width) in &f.declarators {
                        if let Some(w) = width {
                            let name = d.name.as_ref().map(|n| n.0.to_string()).unwrap_or_default();
                            self.err(
                                Diagnostic::error(
                                    codes::BIT_FIELD,
                                    format!("bit-field `{name}` is not allowed in OpenCL C"),
                                )
                                .at(d.span.to(w.span)),
                            );
                        }
                    }
                }
            }
            ast::TypeSpec::Pipe(..) => {}
            // `_Atomic(float)` is gated through its inner type name.
            ast::TypeSpec::Atomic(..) => {}
            ast::TypeSpec::Enum(_) => {}
        }
    }
}
