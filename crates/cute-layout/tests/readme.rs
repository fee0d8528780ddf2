//! The library tour of the repository's README.md, compiled and run. The README's `rust` block
//! must be exactly the code between the markers below, so the two cannot drift apart.

use cute_layout::{IntTuple, Layout};

#[test]
fn readme_tour() -> Result<(), Box<dyn std::error::Error>> {
    // README-TOUR-BEGIN
    let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?; // CuTe's text form (`_4` etc. accepted too)
    assert_eq!((l.size(), l.cosize(), l.rank(), l.depth()), (8, 8, 2, 2));
    assert_eq!(l.index(&"(1,(0,1))".parse()?)?, 5); // natural coordinate
    assert_eq!(l.index(&"(1,2)".parse()?)?, 5); // R-D coordinate
    assert_eq!(l.index(&"5".parse()?)?, l.index_1d(5).ok_or("bad")?); // 1-D
    assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 4, 2, 6, 1, 5, 3, 7]);
    assert_eq!(l.mode(1).ok_or("no mode 1")?.to_string(), "(2,2):(2,1)");
    let c = Layout::col_major("(2,(2,2))".parse::<IntTuple>()?)?; // LayoutLeft
    assert_eq!(c.to_string(), "(2,(2,2)):(1,(2,4))");
    let (a, b): (Layout, Layout) = ("(6,2):(8,2)".parse()?, "(4,3):(3,1)".parse()?);
    assert_eq!(a.compose(&b)?.to_string(), "((2,2),3):((24,2),8)"); // A(B(i)) for every i
    print!("{}", l.table()?); // CuTe's print_layout table
    assert!(l.table()?.to_string().ends_with("+---+---+---+---+\n"));
    // README-TOUR-END
    Ok(())
}

#[test]
fn readme_shows_the_tour() {
    let me = include_str!("readme.rs");
    let begin = me.find("// README-TOUR-BEGIN\n").expect("begin marker") + 21;
    let end = me[begin..]
        .find("    // README-TOUR-END")
        .expect("end marker")
        + begin;
    let tour: String = me[begin..end]
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l)))
        .collect();
    let readme = include_str!("../../../README.md");
    let start = readme.find("```rust\n").expect("README has a rust block") + 8;
    let stop = readme[start..].find("```").expect("closed rust block") + start;
    let block = &readme[start..stop];
    let body: String = block
        .lines()
        .filter(|l| !l.starts_with("use ") && !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(body, tour, "README.md's tour differs from tests/readme.rs");
}
