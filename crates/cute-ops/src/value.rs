//! The form of an argument, read once from its text by the text grammar of ../shared/SPEC.md
//! ([`Form::of`]): the one place where an argument's kind is told from its characters. The
//! operations ask [`crate::Args::form`] (and the predicates built on it: `is_tensor`,
//! `is_swizzled`, `is_basis`, ...) and parse the argument as the kind its form names.
//!
//! The grammar's alternatives, in the order they are told apart:
//! - a JSON integer, or text that is an integer (decimal, or `0x` hexadecimal for an address;
//!   digits past `i64` keep this form and report the overflow): [`Form::Int`]; `_`:
//!   [`Form::Underscore`];
//! - a JSON list of three integers: [`Form::SwizzleList`] (`[B,M,S]`); another list: a tuple;
//! - a tensor: `counting_iter(B) o L`, `ArithTuple(...) o L`, `zip(...)`, a pointer and
//!   `PTR o L` ([`Form::Tensor`]; a pointer alone parses as [`Value::Pointer`]);
//! - a composed layout, `Sw<B,M,S>` or a chain with ` o ` outside parentheses ([`Form::Composed`],
//!   [`Form::Swizzle`] for a swizzle alone);
//! - `SHAPE:STRIDE`, by its strides: F2 (`F2(v)`, with `@` for F2 basis strides), basis sums
//!   (`1@0+1@1`), basis (`1@0`), symbolic (a symbol's letter; text that starts with a letter
//!   and is no symbolic layout, `GMMA::Layout_K_SW128_Atom`, is a word), else integer
//!   ([`Form::Layout`]);
//! - a tuple `(...)` of integers (and `_`) ([`Form::Tuple`]), a tuple that parses with a symbol
//!   among its leaves ([`Form::SymTuple`]), a basis element or a tuple of them ([`Form::Basis`]);
//! - anything else is a word: a name, a tag, an operation, `NAME=VALUE`, or text no form
//!   matches ([`Form::Word`]).
//!
//! [`Form::fits`] relates forms to the declared parameter kinds: the run-time kind check of
//! [`crate::run_op`] uses it, and an ambiguous form (a JSON list of three integers: a swizzle or
//! a tuple) is read as the kind the parameter declares.

use cute_layout::composed::is_composed_text;
use cute_layout::pycute::f2::is_f2_text;
use cute_layout::tensor::is_tensor_text;
use cute_layout::{
    BasisSum, F2Basis, IntTuple, Layout, LayoutChain, LayoutTensor, OuterFn, Pointer, ScaledBasis,
    Swizzle, SymLayout, SymTuple, F2,
};

use crate::table::Kind;
use crate::Arg;

/// An argument parsed once, as the kind its [`Form`] names ([`crate::Args::value`] keeps it for
/// every accessor of the call); `Unparsed` where the text has the form but does not parse as it
/// (the accessor that wants it then reports the parse error).
#[derive(Clone, Debug)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A tuple of integers.
    Tuple(IntTuple),
    /// A layout with integer strides.
    Layout(Layout),
    /// A layout with basis strides.
    BasisLayout(Box<Layout<ScaledBasis>>),
    /// A layout with basis-sum strides.
    SumLayout(Box<Layout<BasisSum>>),
    /// A layout with F2 strides.
    F2Layout(Box<Layout<F2>>),
    /// A layout with F2 basis strides.
    F2BasisLayout(Box<Layout<F2Basis>>),
    /// A symbolic layout.
    Symbolic(Box<SymLayout>),
    /// A swizzle.
    Swizzle(Swizzle),
    /// A composed layout (a chain with at least one layer).
    Chain(Box<LayoutChain>),
    /// A tensor.
    Tensor(Box<LayoutTensor>),
    /// A pointer (`gmem_ptr[16b](0x1000)`).
    Pointer(Pointer),
    /// `_`.
    Underscore,
    /// A word (a name, a tag, an operation, `NAME=VALUE`, ...).
    Word(String),
    /// Text of the form that does not parse as it.
    Unparsed(Form),
}

impl Value {
    /// `text` parsed as the kind its form names.
    pub fn of_text(text: &str) -> Value {
        Value::parse(&Arg::Text(text.to_string()))
    }

    /// Whether the value is a swizzle, or a composed layout whose outermost function is one
    /// (`Sw<B,M,S> o OFFSET o ...`).
    pub fn is_swizzle_outer(&self) -> bool {
        match self {
            Value::Swizzle(_) => true,
            Value::Chain(c) => matches!(c.layers().first(), Some((OuterFn::Swizzle(_), _))),
            _ => false,
        }
    }

    /// `arg` parsed as the kind its form names.
    pub fn parse(arg: &Arg) -> Value {
        let form = Form::of(arg);
        let text = match arg {
            Arg::Int(i) => return Value::Int(*i),
            Arg::List(items) => {
                let ints: Vec<i64> = items
                    .iter()
                    .filter_map(|x| match x {
                        Arg::Int(i) => Some(*i),
                        _ => None,
                    })
                    .collect();
                return match (form, &ints[..]) {
                    (Form::SwizzleList, &[b, m, s]) => Swizzle::new(b, m, s)
                        .map(Value::Swizzle)
                        .unwrap_or(Value::Unparsed(form)),
                    _ => crate::list_tuple(items)
                        .and_then(|t| t.parse().ok())
                        .map_or(Value::Unparsed(form), Value::Tuple),
                };
            }
            Arg::Text(t) => t.as_str(),
        };
        fn ok<T, E>(r: Result<T, E>, f: impl FnOnce(T) -> Value) -> Option<Value> {
            r.ok().map(f)
        }
        let parsed = match form {
            Form::Int => int(text.trim()).map(Value::Int),
            Form::Underscore => Some(Value::Underscore),
            Form::Tuple => ok(text.parse(), Value::Tuple),
            Form::Layout => ok(text.parse(), Value::Layout),
            Form::BasisLayout => ok(text.parse().map(Box::new), Value::BasisLayout),
            Form::SumLayout => ok(text.parse().map(Box::new), Value::SumLayout),
            Form::F2Layout => ok(text.parse().map(Box::new), Value::F2Layout),
            Form::F2BasisLayout => ok(text.parse().map(Box::new), Value::F2BasisLayout),
            Form::Symbolic => ok(text.parse().map(Box::new), Value::Symbolic),
            Form::Swizzle => ok(text.parse(), Value::Swizzle),
            Form::Composed => ok(text.parse().map(Box::new), Value::Chain),
            Form::Tensor => ok(text.parse(), Value::Pointer)
                .or_else(|| ok(text.parse().map(Box::new), Value::Tensor)),
            Form::Word => Some(Value::Word(text.to_string())),
            Form::SymTuple | Form::Basis | Form::SwizzleList => None,
        };
        parsed.unwrap_or(Value::Unparsed(form))
    }
}

/// The form of an argument (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// An integer.
    Int,
    /// `_`.
    Underscore,
    /// A tuple of integers (or a JSON list that is not a swizzle).
    Tuple,
    /// A JSON list of three integers, a swizzle's `[B, M, S]`.
    SwizzleList,
    /// A tensor or a pointer.
    Tensor,
    /// `Sw<B,M,S>` alone.
    Swizzle,
    /// A composed layout: a chain with at least one layer.
    Composed,
    /// `SHAPE:STRIDE` with integer strides.
    Layout,
    /// `SHAPE:STRIDE` with basis strides (`1@0`).
    BasisLayout,
    /// `SHAPE:STRIDE` with a stride that is a sum of bases (`1@0+1@1`).
    SumLayout,
    /// `SHAPE:STRIDE` with F2 strides.
    F2Layout,
    /// `SHAPE:STRIDE` with F2 basis strides (`F2(1)@0`).
    F2BasisLayout,
    /// `SHAPE:STRIDE` with a symbol.
    Symbolic,
    /// A basis element (`3@1@0`) or a tuple holding one.
    Basis,
    /// A tuple with a symbol among its leaves (`(N,4*M)`).
    SymTuple,
    /// Any other text.
    Word,
}

impl Form {
    /// The form of `arg`.
    pub fn of(arg: &Arg) -> Form {
        match arg {
            Arg::Int(_) => Form::Int,
            Arg::List(items)
                if items.len() == 3 && items.iter().all(|x| matches!(x, Arg::Int(_))) =>
            {
                Form::SwizzleList
            }
            Arg::List(_) => Form::Tuple,
            Arg::Text(t) => Form::of_text(t),
        }
    }

    /// The form of a text argument.
    pub fn of_text(text: &str) -> Form {
        let t = text.trim();
        if t == "_" {
            return Form::Underscore;
        }
        if int(t).is_some() {
            return Form::Int;
        }
        let digits = t.strip_prefix('-').unwrap_or(t);
        if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) {
            // An integer past i64: the integer form, which then reports the overflow.
            return Form::Int;
        }
        if is_tensor_text(t) {
            return Form::Tensor;
        }
        if is_composed_text(t) {
            return if t.starts_with("Sw") && !t.contains(':') {
                Form::Swizzle
            } else {
                Form::Composed
            };
        }
        if is_f2_text(t) {
            return if t.contains('@') {
                Form::F2BasisLayout
            } else {
                Form::F2Layout
            };
        }
        if t.contains(':') {
            return if t.contains('+') {
                Form::SumLayout
            } else if t.contains('@') {
                Form::BasisLayout
            } else if t.bytes().any(|c| c.is_ascii_alphabetic()) {
                // A symbolic layout, or a name with colons (`GMMA::Layout_K_SW128_Atom`).
                if t.starts_with(|c: char| c.is_ascii_alphabetic())
                    && t.parse::<SymLayout>().is_err()
                {
                    Form::Word
                } else {
                    Form::Symbolic
                }
            } else {
                Form::Layout
            };
        }
        if t.contains('@') {
            return Form::Basis;
        }
        if t.starts_with('(') {
            if !t.bytes().any(|c| c.is_ascii_alphabetic()) {
                return Form::Tuple;
            }
            if t.parse::<SymTuple>().is_ok() {
                return Form::SymTuple;
            }
        }
        Form::Word
    }

    /// Whether the argument holds basis strides (`@`): a basis, basis-sum or F2 basis layout, a
    /// basis element, or a tensor or chain whose layout has them.
    pub fn has_basis(self, arg: &Arg) -> bool {
        match self {
            Form::BasisLayout | Form::SumLayout | Form::F2BasisLayout | Form::Basis => true,
            Form::Tensor | Form::Composed | Form::Word | Form::Tuple => text_has(arg, "@"),
            _ => false,
        }
    }

    /// Whether the argument holds a sum of bases (`+`): a basis-sum layout, or a tensor, chain,
    /// basis tuple or word with one.
    pub fn has_sum(self, arg: &Arg) -> bool {
        match self {
            Form::SumLayout => true,
            Form::Tensor | Form::Composed | Form::Word | Form::Tuple | Form::Basis => {
                text_has(arg, "+")
            }
            Form::F2Layout | Form::F2BasisLayout => text_has(arg, "+"),
            _ => false,
        }
    }

    /// Whether the argument holds F2 strides: an F2 (basis) layout, or a tensor or chain with one.
    pub fn has_f2(self, arg: &Arg) -> bool {
        match self {
            Form::F2Layout | Form::F2BasisLayout => true,
            Form::Tensor | Form::Composed => text_has(arg, "F2("),
            _ => false,
        }
    }

    /// Whether the argument is a function with layers: a swizzle (`Sw<B,M,S>`, `[B,M,S]`), a
    /// composed layout, or a tensor written as a chain (`counting_iter(0) o L`).
    pub fn is_layered(self, arg: &Arg) -> bool {
        match self {
            Form::Swizzle | Form::SwizzleList | Form::Composed => true,
            Form::Tensor => matches!(arg, Arg::Text(t) if is_composed_text(t)),
            _ => false,
        }
    }

    /// Whether the argument is a chain with a layout in it (`L o O o L`, `Sw o O o L`; a tensor
    /// written so): what parses as a `LayoutChain`.
    pub fn is_chain(self, arg: &Arg) -> bool {
        match self {
            Form::Composed => text_has(arg, ":"),
            Form::Tensor => matches!(arg, Arg::Text(t) if is_composed_text(t) && t.contains(':')),
            _ => false,
        }
    }

    /// Whether the argument has the layout form `SHAPE:STRIDE` (of any stride kind; a chain or
    /// tensor around one counts).
    pub fn is_layout_form(self, arg: &Arg) -> bool {
        match self {
            Form::Layout
            | Form::BasisLayout
            | Form::SumLayout
            | Form::F2Layout
            | Form::F2BasisLayout
            | Form::Symbolic => true,
            Form::Composed | Form::Tensor => text_has(arg, ":"),
            _ => false,
        }
    }

    /// Whether an argument of this form is a value of `kind`: the relation the kind check of
    /// [`crate::run_op`] applies to each argument against its parameter's declared kinds. A form
    /// may be several kinds (an integer is a tuple, a shape, a tiler; a JSON list of three
    /// integers a swizzle or a tuple); the declared kind says which the operation reads. A word
    /// is any name-like kind and any tag (the operation names the words it takes); text of a
    /// form that does not parse passes as its form, so the operation reports the parse error.
    pub fn fits(self, kind: Kind) -> bool {
        use Kind as K;
        if matches!(kind, K::Text | K::Option) {
            return true;
        }
        match self {
            Form::Int => matches!(
                kind,
                K::Int
                    | K::Tuple
                    | K::Shape
                    | K::Stride
                    | K::Coord
                    | K::Profile
                    | K::Tiler
                    | K::Bool
                    | K::Values
                    | K::Type
                    | K::Basis
            ),
            Form::Underscore => {
                matches!(kind, K::Underscore | K::Coord | K::Profile | K::Tiler)
            }
            Form::Tuple => matches!(
                kind,
                K::Tuple | K::Shape | K::Stride | K::Coord | K::Profile | K::Tiler
            ),
            Form::SwizzleList => matches!(
                kind,
                K::Swizzle
                    | K::Composed
                    | K::Tuple
                    | K::Shape
                    | K::Stride
                    | K::Coord
                    | K::Profile
                    | K::Tiler
            ),
            Form::SymTuple => matches!(kind, K::Symbolic | K::Tuple | K::Shape),
            Form::Tensor => matches!(kind, K::Tensor | K::Pointer),
            Form::Swizzle => matches!(kind, K::Swizzle | K::Composed),
            Form::Composed => matches!(kind, K::Composed),
            Form::Layout => matches!(kind, K::Layout | K::Composed | K::Symbolic | K::Tiler),
            Form::BasisLayout | Form::SumLayout => matches!(kind, K::Layout | K::Tiler),
            Form::F2Layout | Form::F2BasisLayout => matches!(kind, K::F2Layout),
            Form::Symbolic => matches!(kind, K::Symbolic),
            Form::Basis => matches!(kind, K::Basis | K::Stride | K::Tiler),
            Form::Word => matches!(
                kind,
                K::Type | K::Atom | K::Field | K::Name | K::Op | K::Binding | K::Values | K::Tag(_)
            ),
        }
    }

    /// The kind a value of this form is first of all (a tuple may also be a shape, a coordinate,
    /// a tiler; an integer a tuple).
    pub fn kind(self) -> Kind {
        match self {
            Form::Int => Kind::Int,
            Form::Underscore => Kind::Underscore,
            Form::Tuple => Kind::Tuple,
            Form::SwizzleList | Form::Swizzle => Kind::Swizzle,
            Form::Tensor => Kind::Tensor,
            Form::Composed => Kind::Composed,
            Form::Layout | Form::BasisLayout | Form::SumLayout => Kind::Layout,
            Form::F2Layout | Form::F2BasisLayout => Kind::F2Layout,
            Form::Symbolic | Form::SymTuple => Kind::Symbolic,
            Form::Basis => Kind::Basis,
            Form::Word => Kind::Name,
        }
    }
}

/// An integer in decimal or `0x` hexadecimal (a byte address).
fn int(t: &str) -> Option<i64> {
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

fn text_has(arg: &Arg, part: &str) -> bool {
    matches!(arg, Arg::Text(t) if t.contains(part))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let f = |s: &str| Form::of(&Arg::Text(s.into()));
        assert_eq!(f(" 16 "), Form::Int);
        assert_eq!(Form::of(&Arg::Int(-3)), Form::Int);
        assert_eq!(f("_"), Form::Underscore);
        assert_eq!(f("(2,(3,4))"), Form::Tuple);
        assert_eq!(f("(_,1,_)"), Form::Tuple);
        assert_eq!(f("(4,8):(8,1)"), Form::Layout);
        assert_eq!(f("(4,8):(1@0,1@1)"), Form::BasisLayout);
        assert_eq!(f("(4,4):(1@0+1@1,2@1)"), Form::SumLayout);
        assert_eq!(f("(8,8):(F2(1),F2(9))"), Form::F2Layout);
        assert_eq!(f("(8,8):(F2(1)@0,F2(9)@0)"), Form::F2BasisLayout);
        assert_eq!(f("(4,N):(1,4)"), Form::Symbolic);
        assert_eq!(f("Sw<3,4,3>"), Form::Swizzle);
        assert_eq!(f("Sw<3,4,3> o 0 o (8,64):(64,1)"), Form::Composed);
        assert_eq!(f("16:1 o 0 o 8:1"), Form::Composed);
        assert_eq!(f("counting_iter(0) o (4,8):(8,1)"), Form::Tensor);
        assert_eq!(f("ArithTuple(0,0) o (4,8):(1@0,1@1)"), Form::Tensor);
        assert_eq!(f("gmem_ptr[16b](0x1000)"), Form::Tensor);
        assert_eq!(f("3@1@0"), Form::Basis);
        assert_eq!(f("LayoutLeft"), Form::Word);
        assert_eq!(f("N=4"), Form::Word);
        assert_eq!(f("(2,3"), Form::Tuple);
        let list = |v: Vec<i64>| Arg::List(v.into_iter().map(Arg::Int).collect());
        assert_eq!(Form::of(&list(vec![3, 4, 3])), Form::SwizzleList);
        assert_eq!(Form::of(&list(vec![3, 4])), Form::Tuple);
        assert_eq!(Form::of_text("(4,8):(8,1)").kind(), Kind::Layout);
    }

    #[test]
    fn values() {
        let v = |s: &str| format!("{:?}", Value::parse(&Arg::Text(s.into())));
        assert_eq!(v("16"), "Int(16)");
        assert!(v("(4,8):(8,1)").starts_with("Layout("));
        assert!(v("(4,8):(1@0,1@1)").starts_with("BasisLayout("));
        assert!(v("Sw<3,4,3> o 0 o (8,64):(64,1)").starts_with("Chain("));
        assert!(v("counting_iter(0) o (4,8):(8,1)").starts_with("Tensor("));
        assert_eq!(v("(4,8):(8,1"), "Unparsed(Layout)");
        assert_eq!(v("LayoutLeft"), "Word(\"LayoutLeft\")");
        let list = Arg::List(vec![Arg::Int(3), Arg::Int(4), Arg::Int(3)]);
        assert!(format!("{:?}", Value::parse(&list)).starts_with("Swizzle("));
    }
}
