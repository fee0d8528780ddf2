//! Every worked example of CuTe's `01_layout.md` (seed 003), asserted verbatim.
//!
//! Where the document shows CuTe's output with static integers (`_8`), the expected text is kept
//! as printed and compared after removing the underscores (our text form has none, SPEC.md 2).
//! Where it shows a program's output (`print1D`, `print2D`), the program is reimplemented here on
//! top of the library and its output compared line by line (the document trims trailing spaces).

use cute_layout::{IntTuple, Layout};

type R = Result<(), Box<dyn std::error::Error>>;

fn lay(s: &str) -> Layout {
    s.parse()
        .unwrap_or_else(|e| panic!("test layout {s:?} does not parse: {e}"))
}

fn tup(s: &str) -> IntTuple {
    s.parse()
        .unwrap_or_else(|e| panic!("test tuple {s:?} does not parse: {e}"))
}

/// CuTe's printed form without the static-integer marks.
fn unstatic(s: &str) -> String {
    s.replace('_', "")
}

/// The document's `print2D`: `printf("%3d  ", layout(m,n))` per value, a newline per row.
fn print2d(l: &Layout) -> Result<String, Box<dyn std::error::Error>> {
    let rows = l.mode(0).ok_or("rank 0")?.size();
    let cols = l.mode(1).ok_or("rank 1")?.size();
    let mut out = String::new();
    for m in 0..rows {
        let mut line = String::new();
        for n in 0..cols {
            let c = IntTuple::flat([m, n]); // the 2-D coordinate (m,n)
            line += &format!("{:>3}  ", l.index(&c)?);
        }
        out += line.trim_end();
        out.push('\n');
    }
    Ok(out)
}

/// The document's `print1D`: `printf("%3d  ", layout(i))` for every 1-D coordinate.
fn print1d(l: &Layout) -> Result<String, Box<dyn std::error::Error>> {
    let mut line = String::new();
    for i in 0..l.size() {
        line += &format!("{:>3}  ", l.index(&IntTuple::int(i))?);
    }
    Ok(line.trim_end().to_string())
}

/// The layouts of "Constructing a Layout".
fn examples() -> Vec<(&'static str, Layout)> {
    let shape_h = tup("(2,(2,2))");
    vec![
        ("s8", Layout::col_major(tup("8")).unwrap()),
        ("d8", Layout::col_major(tup("8")).unwrap()),
        ("s2xs4", Layout::col_major(tup("(2,4)")).unwrap()),
        ("s2xd4", Layout::col_major(tup("(2,4)")).unwrap()),
        ("s2xd4_a", Layout::new(tup("(2,4)"), tup("(12,1)")).unwrap()),
        ("s2xd4_col", Layout::col_major(tup("(2,4)")).unwrap()),
        ("s2xd4_row", Layout::row_major(tup("(2,4)")).unwrap()),
        (
            "s2xh4",
            Layout::new(shape_h.clone(), tup("(4,(2,1))")).unwrap(),
        ),
        (
            "s2xh4_col",
            Layout::col_major(lay("(2,(2,2)):(4,(2,1))").shape()).unwrap(),
        ),
    ]
}

fn get<'a>(ex: &'a [(&str, Layout)], name: &str) -> &'a Layout {
    &ex.iter().find(|(n, _)| *n == name).unwrap().1
}

#[test]
fn construction_print() {
    // 01_layout.md, "Calling print on each layout above results in the following".
    let doc = "\
s8        :  _8:_1
d8        :  8:_1
s2xs4     :  (_2,_4):(_1,_2)
s2xd4     :  (_2,4):(_1,_2)
s2xd4_a   :  (_2,4):(_12,_1)
s2xd4_col :  (_2,4):(_1,_2)
s2xd4_row :  (_2,4):(4,_1)
s2xh4     :  (2,(2,2)):(4,(2,1))
s2xh4_col :  (2,(2,2)):(_1,(2,4))
";
    let ex = examples();
    let ours: String = ex.iter().map(|(n, l)| format!("{n:<10}:  {l}\n")).collect();
    let want: String = doc
        .lines()
        .map(|line| {
            let (name, text) = line.split_once(":  ").unwrap();
            format!("{name}:  {}\n", unstatic(text))
        })
        .collect();
    assert_eq!(ours, want);
    // CuTe's own output (with `_`) parses back to the same layouts.
    for (line, (_, l)) in doc.lines().zip(&ex) {
        let text = line.split(":  ").nth(1).unwrap();
        assert_eq!(&lay(text), l, "{text}");
    }
}

#[test]
fn using_a_layout_print2d() -> R {
    let ex = examples();
    // 01_layout.md, "Using a Layout": print2D.
    let cases = [
        ("s2xs4", "  0    2    4    6\n  1    3    5    7\n"),
        ("s2xd4_a", "  0    1    2    3\n 12   13   14   15\n"),
        ("s2xh4_col", "  0    2    4    6\n  1    3    5    7\n"),
        ("s2xh4", "  0    2    1    3\n  4    6    5    7\n"),
    ];
    for (name, want) in cases {
        assert_eq!(print2d(get(&ex, name))?, want, "print2D({name})");
    }
    Ok(())
}

#[test]
fn using_a_layout_print1d() -> R {
    let ex = examples();
    // 01_layout.md, print1D.
    let cases = [
        ("s2xs4", "  0    1    2    3    4    5    6    7"),
        ("s2xd4_a", "  0   12    1   13    2   14    3   15"),
        ("s2xh4_col", "  0    1    2    3    4    5    6    7"),
        ("s2xh4", "  0    4    2    6    1    5    3    7"),
    ];
    for (name, want) in cases {
        assert_eq!(print1d(get(&ex, name))?, want, "print1D({name})");
    }
    Ok(())
}

#[test]
fn print_layout_s2xh4() -> R {
    // 01_layout.md: `print_layout(s2xh4)`. CuTe ends the column-number line with a space.
    let want = "\
(2,(2,2)):(4,(2,1))
      0   1   2   3 \n    +---+---+---+---+
 0  | 0 | 2 | 1 | 3 |
    +---+---+---+---+
 1  | 4 | 6 | 5 | 7 |
    +---+---+---+---+
";
    let ex = examples();
    assert_eq!(get(&ex, "s2xh4").table()?.to_string(), want);
    Ok(())
}

#[test]
fn vector_layouts() -> R {
    // 01_layout.md, "Vector Layouts".
    let cases = [
        "Layout:  8:1\nCoord :  0  1  2  3  4  5  6  7\nIndex :  0  1  2  3  4  5  6  7\n",
        "Layout:  8:2\nCoord :  0  1  2  3  4  5  6  7\nIndex :  0  2  4  6  8 10 12 14\n",
        "Layout:  ((4,2)):((2,1))\nCoord :  0  1  2  3  4  5  6  7\nIndex :  0  2  4  6  1  3  5  7\n",
        "Layout:  ((4,2)):((1,4))\nCoord :  0  1  2  3  4  5  6  7\nIndex :  0  1  2  3  4  5  6  7\n",
    ];
    for want in cases {
        let text = want.lines().next().unwrap().trim_start_matches("Layout:  ");
        let l = lay(text);
        assert_eq!(l.rank(), 1, "{text} is a vector");
        assert_eq!(l.vector_table()?.to_string(), want);
    }
    // "As a function from integers to integers, it's identical to 8:1."
    let id: Vec<i64> = lay("8:1").offsets().collect();
    assert_eq!(lay("((4,2)):((1,4))").offsets().collect::<Vec<_>>(), id);
    Ok(())
}

#[test]
fn matrix_examples() -> R {
    // 01_layout.md, "Matrix examples": shape, stride and the 2-D grid ("%3d %3d" per row).
    let cases = [
        ("(4,2)", "(1,4)", "  0   4\n  1   5\n  2   6\n  3   7\n"),
        ("(4,2)", "(2,1)", "  0   1\n  2   3\n  4   5\n  6   7\n"),
        (
            "((2,2),2)",
            "((4,1),2)",
            "  0   2\n  4   6\n  1   3\n  5   7\n",
        ),
    ];
    for (shape, stride, want) in cases {
        let l = Layout::new(tup(shape), tup(stride))?;
        assert_eq!(
            (l.shape().to_string(), l.stride().to_string()),
            (shape.into(), stride.into())
        );
        let mut grid = String::new();
        for m in 0..4 {
            let row: Vec<String> = (0..2)
                .map(|n| Ok(format!("{:>3}", l.index(&IntTuple::flat([m, n]))?)))
                .collect::<Result<_, cute_layout::LayoutError>>()?;
            grid += &row.join(" ");
            grid.push('\n');
        }
        assert_eq!(grid, want, "{l}");
    }
    Ok(())
}

#[test]
fn layout_compatibility() {
    // 01_layout.md, "Layout compatibility".
    let cases = [
        ("24", "32", false),
        ("24", "(4,6)", true),
        ("(4,6)", "((2,2),6)", true),
        ("((2,2),6)", "((2,2),(3,2))", true),
        ("24", "((2,2),(3,2))", true),
        ("24", "((2,3),4)", true),
        ("((2,3),4)", "((2,2),(3,2))", false),
        ("((2,2),(3,2))", "((2,3),4)", false),
        ("24", "(24)", true),
        ("(24)", "24", false),
        ("(24)", "(4,6)", false),
    ];
    for (a, b, want) in cases {
        assert_eq!(tup(a).compatible(&tup(b)), want, "compatible({a}, {b})");
    }
}

#[test]
fn coordinate_mapping_table() -> R {
    // 01_layout.md, "Coordinate Mapping": the three coordinate sets of shape (3,(2,3)).
    let table = "\
0 (0,0) (0,(0,0))
1 (1,0) (1,(0,0))
2 (2,0) (2,(0,0))
3 (0,1) (0,(1,0))
4 (1,1) (1,(1,0))
5 (2,1) (2,(1,0))
6 (0,2) (0,(0,1))
7 (1,2) (1,(0,1))
8 (2,2) (2,(0,1))
9 (0,3) (0,(1,1))
10 (1,3) (1,(1,1))
11 (2,3) (2,(1,1))
12 (0,4) (0,(0,2))
13 (1,4) (1,(0,2))
14 (2,4) (2,(0,2))
15 (0,5) (0,(1,2))
16 (1,5) (1,(1,2))
17 (2,5) (2,(1,2))";
    let shape = tup("(3,(2,3))");
    let rd_shape = tup("(3,6)");
    // Any stride will do to check that the three coordinates name the same point.
    let l = Layout::new(shape.clone(), tup("(3,(12,1))"))?;
    assert_eq!(table.lines().count(), 18);
    for row in table.lines() {
        let cols: Vec<&str> = row.split(' ').collect();
        let (one, two, nat) = (tup(cols[0]), tup(cols[1]), tup(cols[2]));
        let i = one.as_int().unwrap();
        assert_eq!(rd_shape.idx2crd(&one)?, two, "2-D coordinate of {i}");
        assert_eq!(shape.idx2crd(&one)?, nat, "natural coordinate of {i}");
        assert_eq!(shape.idx2crd(&two)?, nat, "natural coordinate of {two}");
        assert_eq!(shape.idx2crd(&nat)?, nat);
        assert_eq!(shape.crd2idx(&two)?, i);
        assert_eq!(shape.crd2idx(&nat)?, i);
        assert_eq!(rd_shape.crd2crd(&two, &shape)?, nat);
        let v = l.index_1d(i).unwrap();
        assert_eq!((l.index(&one)?, l.index(&two)?, l.index(&nat)?), (v, v, v));
    }
    Ok(())
}

#[test]
fn idx2crd_examples() -> R {
    // 01_layout.md, `cute::idx2crd(idx, shape)`.
    let shape = tup("(3,(2,3))");
    let cases = [
        ("16", "(1,(1,2))"),
        ("_16", "(_1,(_1,_2))"),
        ("(1,5)", "(1,(1,2))"),
        ("(_1,5)", "(_1,(1,2))"),
        ("(1,(1,2))", "(1,(1,2))"),
        ("(_1,(1,_2))", "(_1,(1,_2))"),
    ];
    for (c, want) in cases {
        assert_eq!(
            shape.idx2crd(&tup(c))?.to_string(),
            unstatic(want),
            "idx2crd({c})"
        );
    }
    Ok(())
}

#[test]
fn index_mapping_table() -> R {
    // 01_layout.md, "Index Mapping": the figure with its hierarchical column header.
    let want = "\
(3,(2,3)):(3,(12,1))
       0     1     2     3     4     5     <== 1-D col coord
     (0,0) (1,0) (0,1) (1,1) (0,2) (1,2)   <== 2-D col coord (j,k)
    +-----+-----+-----+-----+-----+-----+
 0  |  0  |  12 |  1  |  13 |  2  |  14 |
    +-----+-----+-----+-----+-----+-----+
 1  |  3  |  15 |  4  |  16 |  5  |  17 |
    +-----+-----+-----+-----+-----+-----+
 2  |  6  |  18 |  7  |  19 |  8  |  20 |
    +-----+-----+-----+-----+-----+-----+
";
    let l = lay("(3,(2,3)):(3,(12,1))");
    assert_eq!(l.table()?.with_coords().to_string(), want);
    // `(i,(j,k))` goes to `i*3 + j*12 + k*1`.
    for i in 0..3 {
        for j in 0..2 {
            for k in 0..3 {
                let c = tup(&format!("({i},({j},{k}))"));
                assert_eq!(l.index(&c)?, i * 3 + j * 12 + k);
            }
        }
    }
    Ok(())
}

#[test]
fn crd2idx_examples() -> R {
    // 01_layout.md, `cute::crd2idx(c, shape, stride)`.
    let l = Layout::new(tup("(3,(2,3))"), tup("(3,(12,1))"))?;
    for (c, want) in [
        ("16", "17"),
        ("_16", "_17"),
        ("(1,5)", "17"),
        ("(_1,5)", "17"),
        ("(_1,_5)", "_17"),
        ("(1,(1,2))", "17"),
        ("(_1,(_1,_2))", "_17"),
    ] {
        assert_eq!(
            l.index(&tup(c))?.to_string(),
            unstatic(want),
            "crd2idx({c})"
        );
    }
    Ok(())
}

#[test]
fn sublayouts() -> R {
    // 01_layout.md, "Sublayouts": layout<I...>.
    let a = Layout::col_major(tup("(4,(3,6))"))?;
    assert_eq!(a.to_string(), "(4,(3,6)):(1,(4,12))");
    for (path, want) in [
        (&[0][..], "4:1"),
        (&[1], "(3,6):(4,12)"),
        (&[1, 0], "3:4"),
        (&[1, 1], "6:12"),
    ] {
        assert_eq!(
            a.mode_at(path).ok_or("no mode")?.to_string(),
            want,
            "{path:?}"
        );
    }
    assert_eq!(a.mode(0).ok_or("no mode")?.to_string(), "4:1");
    assert_eq!(a.mode(1).ok_or("no mode")?.to_string(), "(3,6):(4,12)");
    Ok(())
}

#[test]
fn select_and_take() -> R {
    // 01_layout.md, select<I...> and take<ModeBegin, ModeEnd>.
    let a = Layout::col_major(tup("(2,3,5,7)"))?;
    assert_eq!(a.to_string(), "(2,3,5,7):(1,2,6,30)");
    assert_eq!(a.select_modes(&[1, 3])?.to_string(), "(3,7):(2,30)");
    assert_eq!(a.select_modes(&[0, 1, 3])?.to_string(), "(2,3,7):(1,2,30)");
    assert_eq!(a.select_modes(&[2])?.to_string(), "(5):(6)");
    assert_eq!(a.take_modes(1, 3)?.to_string(), "(3,5):(2,6)");
    assert_eq!(a.take_modes(1, 4)?.to_string(), "(3,5,7):(2,6,30)");
    // "take<1,1> not allowed. Empty layouts not allowed."
    assert!(a.take_modes(1, 1).is_err());
    Ok(())
}

#[test]
fn concatenation() -> R {
    // 01_layout.md, "Concatenation".
    let a = lay("3:1");
    let b = lay("4:3");
    let row = Layout::from_modes([a.clone(), b.clone()])?;
    let col = Layout::from_modes([b.clone(), a.clone()])?;
    assert_eq!(row.to_string(), "(3,4):(1,3)");
    assert_eq!(col.to_string(), "(4,3):(3,1)");
    assert_eq!(
        Layout::from_modes([row.clone(), col])?.to_string(),
        "((3,4),(4,3)):((1,3),(3,1))"
    );
    let aa = Layout::from_modes([a.clone()])?;
    assert_eq!(aa.to_string(), "(3):(1)");
    assert_eq!(Layout::from_modes([aa.clone()])?.to_string(), "((3)):((1))");
    let d = Layout::from_modes([a.clone(), aa, a.clone()])?;
    assert_eq!(d.to_string(), "(3,(3),3):(1,(1),1)");

    let ab = a.append(&b)?;
    assert_eq!(ab.to_string(), "(3,4):(1,3)");
    assert_eq!(a.prepend(&b)?.to_string(), "(4,3):(3,1)");
    let c = ab.append(&ab)?;
    assert_eq!(c.to_string(), "(3,4,(3,4)):(1,3,(1,3))");
    assert_eq!(c.replace(2, &b)?.to_string(), "(3,4,4):(1,3,3)");
    Ok(())
}

#[test]
fn grouping_and_flattening() -> R {
    // 01_layout.md, "Grouping and flattening" (CuTe's output, static marks included).
    let a = Layout::col_major(tup("(2,3,5,7)"))?;
    assert_eq!(a.to_string(), unstatic("(_2,_3,_5,_7):(_1,_2,_6,_30)"));
    let b = a.group_modes(0, 2)?;
    assert_eq!(b.to_string(), unstatic("((_2,_3),_5,_7):((_1,_2),_6,_30)"));
    let c = b.group_modes(1, 3)?;
    assert_eq!(
        c.to_string(),
        unstatic("((_2,_3),(_5,_7)):((_1,_2),(_6,_30))")
    );
    assert_eq!(
        b.flatten().to_string(),
        unstatic("(_2,_3,_5,_7):(_1,_2,_6,_30)")
    );
    assert_eq!(
        c.flatten().to_string(),
        unstatic("(_2,_3,_5,_7):(_1,_2,_6,_30)")
    );
    Ok(())
}

#[test]
fn shape_and_stride_are_congruent() {
    // 01_layout.md: "static_assert(congruent(my_shape, my_stride))" — we refuse instead.
    assert!(Layout::new(tup("(2,(2,2))"), tup("(4,2)")).is_err());
    assert!("(2,(2,2)):(4,2)".parse::<Layout>().is_err());
}

#[test]
fn int_tuple_examples() -> R {
    // 01_layout.md, "Tuple" / "IntTuple": 6, (2), (4,3), (3,(6,2),8).
    for (t, rank, depth, size) in [
        ("6", 1, 0, 6),
        ("(2)", 1, 1, 2),
        ("(4,3)", 2, 1, 12),
        ("(3,(6,2),8)", 3, 2, 288),
    ] {
        let v = tup(t);
        assert_eq!((v.rank(), v.depth(), v.size()?), (rank, depth, size), "{t}");
        assert_eq!(v.to_string(), t);
    }
    // get<I>: for an integer, get<0> is the integer itself.
    assert_eq!(tup("6").get(0), Some(tup("6")));
    assert_eq!(tup("(3,(6,2),8)").get(1), Some(tup("(6,2)")));
    Ok(())
}
