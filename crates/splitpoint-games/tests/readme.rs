//! The README's library program is `examples/readme.rs`, which `cargo test`
//! builds and this test runs: a change to either that the other lacks fails here.

/// The README's code block under "The library in ten lines".
fn readme_program() -> &'static str {
    let readme = include_str!("../../../README.md");
    let section = readme
        .split("## The library in ten lines")
        .nth(1)
        .expect("the README has a section \"The library in ten lines\"");
    let block = section
        .split("```rust\n")
        .nth(1)
        .expect("the section holds a ```rust block");
    block.split("```").next().expect("the block is closed")
}

#[test]
fn the_readme_program_is_the_example() {
    let example = include_str!("../examples/readme.rs");
    assert_eq!(
        readme_program(),
        example,
        "README.md's \"library in ten lines\" and examples/readme.rs differ: copy one onto the other"
    );
}

#[test]
fn the_readme_program_is_a_whole_program() {
    let program = readme_program();
    assert!(program.contains("fn main()"), "{program}");
    assert!(program.contains("use splitpoint"), "{program}");
}
