//! Typed pointers without memory ([`cute_layout::Pointer`]) and the tensors over them: CuTe's
//! `make_gmem_ptr`, `make_smem_ptr` (with a swizzle), `make_rmem_ptr`, `make_tmem_ptr`,
//! `make_swizzle_ptr`, `recast_ptr`, `recast<T>(tensor)` and
//! `as_position_independent_swizzle_tensor`, in the text CuTe's `print` writes, and CuTe's
//! `make_zip_tensor` / `unzip_tensor` (text `zip(T1, T2, ...)`: CuTe prints no zip tensor). `make_tensor
//! PTR LAYOUT` (in [`crate::tensor_ops`]) makes a pointer tensor; the tensor operations take
//! one. One table, [`POINTER_OPS`], listed in [`crate::GROUPS`]; the algebra is in
//! `cute_layout`, these entries convert arguments.

use cute_layout::{tensor::element_type_bits, MemSpace, Pointer, Swizzle};

use crate::table::{more, one, opt, Kind as K, Topic};
use crate::value::{Form, Value};
use crate::{op, Args, OpError, OpSpec};

/// The pointer operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static POINTER_OPS: &[OpSpec] = &[
    op("make_gmem_ptr", Topic::Tensors, "CuTe make_gmem_ptr((TYPE*)ADDR): a global-memory pointer to TYPE (a CuTe type name such as half_t, or a width in bits) at byte address ADDR")
        .params(&[one("", &[K::Type]), one("ADDR", &[K::Int])])
        .returns(&[K::Pointer])
        .errors(&["InvalidArgument"])
        .law("ptr + k is ADDR + k * bits / 8 (sub-byte types: k * bits bits on from bit 0)")
        .example(&["half_t", "0x1000"], "gmem_ptr[16b](0x1000)")
        .run(|a| Ok(a.new_ptr(MemSpace::Gmem)?.to_string())),
    op("make_smem_ptr", Topic::Tensors, "CuTe make_smem_ptr((TYPE*)ADDR[, Sw<B,M,S>]): a shared-memory pointer, swizzled when SWIZZLE is given")
        .params(&[one("", &[K::Type]), one("ADDR", &[K::Int]), opt("", &[K::Swizzle])])
        .returns(&[K::Pointer])
        .errors(&["InvalidArgument"])
        .law("as make_gmem_ptr; with SWIZZLE, element k is at SWIZZLE(ADDR + k * bits / 8)")
        .example(&["half_t", "0x1000", "Sw<3,4,3>"], "Sw<3,4,3>_smem_ptr[16b](0x1000)")
        .run(make_smem_ptr),
    op("make_rmem_ptr", Topic::Tensors, "CuTe make_rmem_ptr((TYPE*)ADDR): a register pointer, which CuTe keeps as the raw pointer ptr[Nb](ADDR)")
        .params(&[one("", &[K::Type]), one("ADDR", &[K::Int])])
        .returns(&[K::Pointer])
        .errors(&["InvalidArgument"])
        .law("as make_gmem_ptr, printed as CuTe's raw pointer")
        .example(&["float", "0x40"], "ptr[32b](0x40)")
        .run(|a| Ok(a.new_ptr(MemSpace::Generic)?.to_string())),
    op("make_tmem_ptr", Topic::Tensors, "CuTe make_tmem_ptr<TYPE>(ADDR): a tensor-memory pointer at the 32-bit (lane << 16 | column) address ADDR (default 0)")
        .params(&[one("", &[K::Type]), opt("ADDR", &[K::Int])])
        .returns(&[K::Pointer])
        .errors(&["InvalidArgument"])
        .law("ptr + k is ADDR + rotr(k, log2(32 / bits)) on 32 bits")
        .example(&["float", "0x10002"], "tmem_[32b](0x0001.0002)")
        .run(make_tmem_ptr),
    op("make_swizzle_ptr", Topic::Tensors, "CuTe make_swizzle_ptr(ptr, Sw<B,M,S>): the pointer whose elements are reached at swizzle(byte address); Sw<0,M,S> leaves it as it is")
        .params(&[one("", &[K::Pointer]), one("", &[K::Swizzle])])
        .returns(&[K::Pointer])
        .errors(&["InvalidArgument"])
        .law("element k of the result is at SWIZZLE(address of element k of PTR)")
        .example(&["smem_ptr[16b](0x1000)", "Sw<3,4,3>"], "Sw<3,4,3>_smem_ptr[16b](0x1000)")
        .run(|a| Ok(a.pointer(0)?.with_swizzle(a.swizzle_arg(1)?)?.to_string())),
    op("recast_ptr", Topic::Tensors, "CuTe recast_ptr<TYPE>(ptr): the same address as a pointer to TYPE (memory space and swizzle kept)")
        .params(&[one("", &[K::Type]), one("", &[K::Pointer])])
        .returns(&[K::Pointer])
        .errors(&["InvalidArgument"])
        .law("the same byte address (and bit, for sub-byte types) as a pointer to TYPE")
        .example(&["float", "gmem_ptr[16b](0x1000)"], "gmem_ptr[32b](0x1000)")
        .run(|a| Ok(a.pointer(1)?.recast(a.element_bits(0)?)?.to_string())),
    op("recast_tensor", Topic::Tensors, "CuTe recast<TYPE>(tensor) of a pointer tensor: the layout recast by the ratio of the widths (upcast/downcast) and the pointer recast")
        .params(&[one("", &[K::Type]), one("", &[K::Tensor])])
        .returns(&[K::Tensor])
        .errors(&["InvalidArgument", "NotRepresentable"])
        .law("layout recast(bits(PTR), bits(TYPE)) (CuTe's upcast/downcast), pointer recast_ptr<TYPE>: the same bytes when the unit-stride modes span whole elements of both widths (CuTe rounds a ragged one up, and widens an extent-1 unit-stride mode)")
        .example(&["float", "smem_ptr[16b](0x400) o (8,8):(8,1)"], "smem_ptr[32b](0x400) o (8,4):(4,1)")
        .run(|a| Ok(a.tensor(1)?.recast(a.element_bits(0)?)?.to_string())),
    op("make_zip_tensor", Topic::Tensors, "CuTe make_zip_tensor(t1, t2, ...) of tensors of one shape: its value at c is the tuple of their values; views act on every tensor (text zip(T1, T2, ...))")
        .params(&[one("", &[K::Tensor]), more("", &[K::Tensor])])
        .returns(&[K::Tensor])
        .errors(&["InvalidArgument"])
        .law("Z(c) = (T1(c), T2(c), ...) at every coordinate c; a view of Z is the zip of the views")
        .example(&["counting_iter(0) o (4,4):(4,1)", "counting_iter(100) o (4,4):(1,4)"], "zip(counting_iter(0) o (4,4):(4,1), counting_iter(100) o (4,4):(1,4))")
        .run(make_zip_tensor),
    op("unzip_tensor", Topic::Tensors, "CuTe unzip_tensor: the tensors of a zip tensor, one a line, or tensor I")
        .params(&[one("ZIP", &[K::Tensor]), opt("I", &[K::Int])])
        .returns(&[K::Tensor, K::Text])
        .errors(&["ModeOutOfRange"])
        .law("unzip_tensor(make_zip_tensor(T1, T2, ...)) = (T1, T2, ...)")
        .example(&["zip(counting_iter(1) o (4):(4), counting_iter(104) o (4):(1))", "1"], "counting_iter(104) o (4):(1)")
        .run(unzip_tensor),
    op("as_position_independent_swizzle_tensor", Topic::Tensors, "CuTe as_position_independent_swizzle_tensor: a swizzled smem pointer tensor as a plain smem pointer over Sw' o 0 o LAYOUT, the swizzle recast from bytes to elements")
        .params(&[one("", &[K::Tensor])])
        .returns(&[K::Tensor])
        .errors(&["InvalidArgument"])
        .law("R(c) and T(c) are the same address at every coordinate c")
        .example(&["Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)"], "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)")
        .run(|a| Ok(a.tensor(0)?.as_position_independent_swizzle_tensor()?.to_string())),
];

impl Args<'_> {
    /// Argument `k` as an element type: a CuTe type name (`half_t`, `float`, `int4_t`, ...) or
    /// a width in bits.
    fn element_bits(&self, k: usize) -> Result<u32, OpError> {
        let s = self.text(k, "element type")?;
        element_type_bits(&s).ok_or_else(|| {
            self.arg_error(
                "BadRequest",
                k,
                format_args!(
                    " must be an element type (half_t, float, int8_t, int4_t, ... or a width in bits), got {s:?}"
                ),
            )
        })
    }

    /// Argument `k` as a byte address: decimal or `0x` hexadecimal.
    fn address(&self, k: usize) -> Result<i64, OpError> {
        let s = self.text(k, "address")?;
        let t = s.trim();
        let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(h) => i64::from_str_radix(h, 16).ok(),
            None => t.parse::<i64>().ok(),
        };
        v.ok_or_else(|| {
            self.arg_error(
                "BadRequest",
                k,
                format_args!(" must be an address (0x1000 or 4096), got {s:?}"),
            )
        })
    }

    /// Argument `k` as a pointer (CuTe's print of one).
    fn pointer(&self, k: usize) -> Result<Pointer, OpError> {
        if let Value::Pointer(p) = self.value(k) {
            return Ok(*p);
        }
        let s = self.text(k, "pointer")?;
        if self.form(k) != Form::Tensor {
            return Err(self.arg_error(
                "BadRequest",
                k,
                format_args!(
                    " must be a pointer such as gmem_ptr[16b](0x1000) (make_gmem_ptr TYPE ADDR makes one), got {s:?}"
                ),
            ));
        }
        s.parse().map_err(|e| {
            if let Value::Tensor(_) = self.value(k) {
                self.parse_error(k, "pointer", e) // a tensor where a pointer belongs
            } else {
                self.arg_error("ParseError", k, format_args!(" (pointer): {e}"))
            }
        })
    }

    /// Argument `k` as a swizzle `Sw<B,M,S>`.
    fn swizzle_arg(&self, k: usize) -> Result<Swizzle, OpError> {
        let s = self.text(k, "swizzle")?;
        self.parse_text(k, &s, "swizzle Sw<B,M,S>")
    }

    /// `TYPE ADDR` as a pointer in `space`.
    fn new_ptr(&self, space: MemSpace) -> Result<Pointer, OpError> {
        Ok(Pointer::new(
            space,
            self.element_bits(0)?,
            self.address(1)?,
        )?)
    }
}

fn make_smem_ptr(a: &Args<'_>) -> Result<String, OpError> {
    let p = a.new_ptr(MemSpace::Smem)?;
    Ok(if a.len() == 3 {
        p.with_swizzle(a.swizzle_arg(2)?)?
    } else {
        p
    }
    .to_string())
}

fn make_zip_tensor(a: &Args<'_>) -> Result<String, OpError> {
    let ts = (0..a.len())
        .map(|k| a.tensor(k))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(cute_layout::LayoutTensor::zip(ts)?.to_string())
}

fn unzip_tensor(a: &Args<'_>) -> Result<String, OpError> {
    let parts = a.tensor(0)?.unzip();
    if a.len() == 2 {
        let i = a.index(1)?;
        return parts.get(i).map(|t| t.to_string()).ok_or_else(|| {
            OpError::new(
                "ModeOutOfRange",
                format!("{}: tensor {i} of a zip of {}", a.op, parts.len()),
            )
        });
    }
    let lines: Vec<String> = parts.iter().map(|t| t.to_string()).collect();
    Ok(lines.join("\n"))
}

/// `upcast N FLAGGED` / `downcast N FLAGGED` of CuTe's `smem_ptr_flag` layout
/// `Sw<..> o smem_ptr[Nb](unset) o L`, or `None` for another argument.
pub(crate) fn flag_cast(a: &Args<'_>, up: bool) -> Result<Option<String>, OpError> {
    let s = a.text(1, "layout")?;
    let Some(flagged) = cute_layout::tensor::parse_smem_ptr_flag(&s) else {
        return Ok(None);
    };
    let f = flagged.map_err(|e| a.parse_error(1, "smem_ptr_flag layout", e))?;
    let n = a.int(0)?;
    Ok(Some(
        if up { f.upcast(n)? } else { f.downcast(n)? }.to_string(),
    ))
}

fn make_tmem_ptr(a: &Args<'_>) -> Result<String, OpError> {
    let addr = if a.len() == 2 { a.address(1)? } else { 0 };
    Ok(Pointer::new(MemSpace::Tmem, a.element_bits(0)?, addr)?.to_string())
}

/// `make_tensor PTR LAYOUT`: a pointer tensor, or `None` when argument 1 is not a pointer. A
/// layout `Sw<B,M,S> o smem_ptr[Nb](unset) o L` (CuTe's `smem_ptr_flag`) moves the swizzle
/// onto the pointer.
pub(crate) fn make_tensor(a: &Args<'_>) -> Result<Option<String>, OpError> {
    if !matches!(a.value(0), Value::Pointer(_)) {
        return Ok(None);
    }
    if a.len() != 2 {
        return Err(OpError::new(
            "BadRequest",
            format!("{}: a pointer needs a layout: make_tensor PTR LAYOUT", a.op),
        ));
    }
    let ptr = a.pointer(0)?;
    let l = a.text(1, "layout")?;
    if let Some(flagged) = cute_layout::tensor::parse_smem_ptr_flag(&l) {
        let f = flagged.map_err(|e| a.parse_error(1, "smem_ptr_flag layout", e))?;
        let t = cute_layout::LayoutTensor::from_pointer_flagged(ptr, f.swizzle, f.bits, f.layout)?;
        return Ok(Some(t.to_string()));
    }
    let layout: cute_layout::ComposedLayout = a.parse_text(1, &l, "layout")?;
    Ok(Some(
        cute_layout::LayoutTensor::from_pointer(ptr, layout).to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use crate::test_util::{assert_kinds, kind, ok};
    use crate::{run_op, Arg};

    fn message(op: &str, args: &[&str]) -> String {
        let args: Vec<Arg> = args.iter().map(|s| Arg::Text(s.to_string())).collect();
        run_op(op, &args).unwrap_err().message
    }

    #[test]
    fn a_malformed_pointer_is_a_parse_error_not_a_tensor() {
        // Found by the ops_laws fuzzer: these were answered "argument 2 is a tensor".
        for (op, args) in [
            ("recast_ptr", ["int8_t", "smem_ptr[2b](0x1400)"]),
            ("make_swizzle_ptr", ["gmem_ptr[16b](-1)", "Sw<1,4,3>"]),
        ] {
            assert_eq!(kind(op, &args), "ParseError", "{op}{args:?}");
            assert!(message(op, &args).contains("(pointer): "), "{op}{args:?}");
        }
        assert_eq!(
            message("recast_ptr", &["float", "gmem_ptr[16b](0x1000) o 4:1"]),
            "recast_ptr: argument 2 is a tensor; this operation takes a pointer"
        );
    }

    #[test]
    fn pointers_through_the_table() {
        assert_eq!(
            ok("make_gmem_ptr", &["16", "4096"]),
            "gmem_ptr[16b](0x1000)"
        );
        assert_eq!(
            ok("make_gmem_ptr", &["int4_t", "0x1000"]),
            "gmem_subptr[4b](0x1000.0)"
        );
        assert_eq!(
            ok("make_smem_ptr", &["float", "0x400"]),
            "smem_ptr[32b](0x400)"
        );
        assert_eq!(
            ok("make_smem_ptr", &["half_t", "0x1000", "Sw<0,4,3>"]),
            "smem_ptr[16b](0x1000)"
        );
        assert_eq!(ok("make_rmem_ptr", &["double", "0"]), "ptr[64b]((nil))");
        assert_eq!(ok("make_tmem_ptr", &["float"]), "tmem_[32b](0x0000.0000)");
        assert_eq!(
            ok("recast_ptr", &["int4_t", "Sw<3,4,3>_smem_ptr[16b](0x1000)"]),
            "Sw<3,4,3>_smem_subptr[4b](0x1000.0)"
        );
        let g = ok("make_tensor", &["gmem_ptr[16b](0x1000)", "(4,4):(4,1)"]);
        assert_eq!(g, "gmem_ptr[16b](0x1000) o (4,4):(4,1)");
        assert_eq!(
            ok("slice", &["(_,1)", &g]),
            "gmem_ptr[16b](0x1002) o (4):(4)"
        );
        assert_eq!(ok("tensor_value", &[&g, "(1,2)"]), "ptr[16b](0x100c)");
        assert_eq!(
            ok("local_tile", &[&g, "(2,2)", "(1,1)"]),
            "gmem_ptr[16b](0x1014) o (2,2):(4,1)"
        );
        assert_eq!(
            ok("print_tensor", &["gmem_ptr[16b](0x1000) o (2,2):(2,1)"]),
            "gmem_ptr[16b](0x1000) o (2,2):(2,1):\n  0x1000  0x1002\n  0x1004  0x1006"
        );
        assert_eq!(
            ok(
                "upcast",
                &["2", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"]
            ),
            "Sw<3,4,3> o smem_ptr[32b](unset) o (8,32):(32,1)"
        );
        assert_eq!(
            ok(
                "downcast",
                &["2", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"]
            ),
            "Sw<3,4,3> o smem_ptr[8b](unset) o (8,128):(128,1)"
        );
        assert_eq!(
            ok(
                "make_tensor",
                &[
                    "smem_ptr[16b](0x1000)",
                    "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"
                ]
            ),
            "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)"
        );
        let z = ok("make_zip_tensor", &["counting_iter(0) o (4,4):(4,1)", &g]);
        assert_eq!(
            z,
            "zip(counting_iter(0) o (4,4):(4,1), gmem_ptr[16b](0x1000) o (4,4):(4,1))"
        );
        assert_eq!(ok("tensor_value", &[&z, "(1,2)"]), "(6,ptr[16b](0x100c))");
        assert_eq!(
            ok("slice", &["(2,_)", &z]),
            "zip(counting_iter(8) o (4):(1), gmem_ptr[16b](0x1010) o (4):(1))"
        );
        assert_eq!(ok("unzip_tensor", &[&z, "1"]), g);
        // A slice of a swizzled tensor may split a mode: the zip stays a tensor the ops take.
        let sz = ok(
            "slice",
            &["(1,_)", "zip(counting_iter(0) o Sw<2,0,2> o 0 o (4,4):(4,1), counting_iter(3) o (4,4):(4,1))"],
        );
        assert_eq!(
            sz,
            "zip(counting_iter(5) o ((2,2)):((-1,2)), counting_iter(7) o (4):(1))"
        );
        assert_eq!(ok("tensor_value", &[&sz, "3"]), "(6,10)");
        assert_eq!(
            ok("unzip_tensor", &[&z]),
            format!("counting_iter(0) o (4,4):(4,1)\n{g}")
        );
        assert_eq!(
            ok(
                "zipped_divide",
                &["gmem_ptr[32b](0x100) o (4,4):(4,1)", "(2,2)"]
            ),
            "gmem_ptr[32b](0x100) o ((2,2),(2,2)):((4,1),(8,2))"
        );
    }

    #[test]
    fn pointer_errors_are_typed() {
        assert_kinds(&[
            ("make_gmem_ptr", &["half_t", "0x1001"], "InvalidArgument"),
            ("make_gmem_ptr", &["quaternion", "0x1000"], "BadRequest"),
            ("make_gmem_ptr", &["half_t", "0xzz"], "KindMismatch"),
            ("make_gmem_ptr", &["12", "0x1000"], "InvalidArgument"),
            (
                "make_swizzle_ptr",
                &["(4,4):(4,1)", "Sw<3,4,3>"],
                "KindMismatch",
            ),
            ("make_tensor", &["gmem_ptr[16b](0x1000)"], "KindMismatch"),
            (
                "make_tensor",
                &[
                    "gmem_ptr[16b](0x1000)",
                    "Sw<3,4,3> o smem_ptr[16b](unset) o 8:1",
                ],
                "InvalidArgument",
            ),
            (
                "recast_tensor",
                &["float", "counting_iter(0) o 4:1"],
                "InvalidArgument",
            ),
            (
                "recast_tensor",
                &["float", "gmem_ptr[16b](0x1002) o 4:1"],
                "InvalidArgument",
            ),
            (
                "tensor_value",
                &["ptr[8b](0x7fffffffffffffff) o 2:1", "1"],
                "Overflow",
            ),
            (
                "make_zip_tensor",
                &["counting_iter(0) o 4:1", "counting_iter(0) o 8:1"],
                "InvalidArgument",
            ),
            (
                "unzip_tensor",
                &["zip(counting_iter(0) o 4:1, counting_iter(0) o 4:1)", "2"],
                "ModeOutOfRange",
            ),
            (
                "batch_reduce",
                &["gmem_ptr[16b](0x1000) o (2,2):(2,1)"],
                "InvalidArgument",
            ),
        ]);
    }
}
