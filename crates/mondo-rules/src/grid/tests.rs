use super::*;
use proptest::prelude::*;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

fn six() -> Dims {
    Dims::CLASSIC
}

/// The seed's example board (rows A-B as given, the rest filled in).
const BOARD: &str =
    "X X O X + X / O O X + O X / + X O O X + / O + + X O O / X O X + + O / + X O X O X";

#[test]
fn cells_read_leniently_and_print_canonically() {
    assert_eq!(six().cell("c4"), Ok(Cell::new(2, 3)));
    assert_eq!(six().cell(" F06 "), Ok(Cell::new(5, 5)));
    assert_eq!(Cell::new(2, 3).to_string(), "C4");
    let e = six().cell("G1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "`G1` is off the grid: rows are A-F, columns 1-6"
    );
    let e = six().cell("a7").unwrap_err();
    assert!(e.to_string().starts_with("`A7` is off"), "{e}");
    let e = six().cell("4C").unwrap_err();
    assert_eq!(e, NotationError::NotACell("4C".into()));
    assert!(e.to_string().contains("like C4"), "{e}");
    assert!(six().cell("C0").is_err());
    assert!(six().cell("C").is_err());
}

#[test]
fn groups_take_any_separator_and_print_sorted_with_dashes() {
    let g = six().group("d4, c3 d3 - D5-e5").unwrap();
    assert_eq!(g.to_string(), "C3-D3-D4-D5-E5");
    assert_eq!(six().group("C3-D3-D4-D5-E5").unwrap(), g);
    let e = six().group("C3-D3-c3").unwrap_err();
    assert_eq!(e.to_string(), "`C3` is given twice: name each cell once");
    let e = six().group("C3-Z3").unwrap_err();
    assert!(e.to_string().contains("`Z3` is off the grid"), "{e}");
    let e = six().group("C3-D3-xx").unwrap_err();
    assert!(e.to_string().contains("`xx` is not a cell"), "{e}");
    assert_eq!(six().group(" - , "), Err(NotationError::Empty));
    // Groups are stored as their text and read back.
    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(json, "\"C3-D3-D4-D5-E5\"");
    assert_eq!(serde_json::from_str::<Group>(&json).unwrap(), g);
}

#[test]
fn grids_read_rows_by_newline_or_slash_and_print_canonically() {
    let g: Grid = BOARD.parse().unwrap();
    assert_eq!(g.dims(), six());
    assert_eq!(g.rows()[0], "XXOX+X");
    assert_eq!(g.to_string(), BOARD);
    let compact = "xxox+x\noox+ox\n+xoox+\n0++xoo\nxox++o\n+xoxox";
    assert_eq!(compact.parse::<Grid>().unwrap(), g);
    assert_eq!(g.get(Cell::new(1, 4)), Some(Symbol::Circle));
    assert_eq!(g.get(Cell::new(6, 0)), None);
    let e = "XXO / OX".parse::<Grid>().unwrap_err();
    assert_eq!(e.to_string(), "row B has 2 cells; the grid has 3 columns");
    let e = "XXO / OXQ".parse::<Grid>().unwrap_err();
    assert!(e.to_string().contains("`Q` at `B3` is not a symbol"), "{e}");
    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), g);
}

#[test]
fn reconstructions_allow_blanks_and_are_marked_cell_by_cell() {
    let g: Grid = BOARD.parse().unwrap();
    let text = "X X O X + X\nO O X + O X\n. . . . . .\n- - - - - -\n......\n......";
    let r = Reconstruction::parse(text, six(), true).unwrap();
    assert_eq!(r.filled(), 12);
    assert_eq!(r.mark(&g, Region::all(six())), (12, 0));
    let wrong = Reconstruction::parse(&text.replacen('X', "O", 1), six(), true).unwrap();
    assert_eq!(wrong.mark(&g, Region::all(six())), (11, 1));
    let e = Reconstruction::parse("XXO", six(), true).unwrap_err();
    assert_eq!(e.to_string(), "1 rows given; the grid has 6 rows (A-F)");
    let e = Reconstruction::parse("X?O/.../.../.../.../...", Dims::new(6, 3).unwrap(), true)
        .unwrap_err();
    assert!(e.to_string().contains("or . for a blank"), "{e}");
}

#[test]
fn regions_name_rows_then_columns() {
    let dims = Dims::new(10, 12).unwrap();
    let r = Region::parse("b-d 2-7", dims).unwrap();
    assert_eq!(r.to_string(), "B-D 2-7");
    assert_eq!(r.dims(), Dims { rows: 3, cols: 6 });
    assert_eq!(r.cells().next(), Some(Cell::new(1, 1)));
    assert_eq!(r.cells().count(), 18);
    assert_eq!(Region::parse("C 4", dims).unwrap().cells().count(), 1);
    assert_eq!(Region::parse("all", dims).unwrap().cells().count(), 120);
    assert!(Region::parse("D-B 1-2", dims).is_err());
    assert!(Region::parse("B-D 2-30", dims).is_err());
    assert!(Region::parse("B-D", dims).is_err());
}

#[test]
fn dims_are_bounded_by_letters_and_twenty_columns() {
    assert!(Dims::new(26, 20).is_ok());
    assert!(Dims::new(27, 5).is_err());
    assert!(Dims::new(5, 21).is_err());
    assert!(Dims::new(0, 5).is_err());
}

#[test]
fn a_shape_is_the_same_under_its_eight_symmetries() {
    // The F pentomino has 8 distinct images; every one is the same shape.
    let f: Shape = ".## / ##. / .#.".parse().unwrap();
    let images = f.images();
    assert_eq!(images.len(), 8);
    for image in &images {
        let cells = image
            .iter()
            .map(|&(r, c)| Cell::new(r + 2, c + 1))
            .collect();
        assert_eq!(Shape::of(&Group::new(cells)).as_ref(), Some(&f));
    }
    // Symmetric shapes have fewer images.
    assert_eq!("## / ##".parse::<Shape>().unwrap().images().len(), 1);
    assert_eq!("####".parse::<Shape>().unwrap().images().len(), 2);
    assert_eq!("##. / .##".parse::<Shape>().unwrap().images().len(), 4);
    // The seed's example: C3-D3-D4-D5-E5 and D2-D3-E3-F3-F4 have one shape.
    let a = Shape::of(&six().group("C3-D3-D4-D5-E5").unwrap());
    let b = Shape::of(&six().group("D2-D3-E3-F3-F4").unwrap());
    assert!(a.is_some());
    assert_eq!(a, b);
    // An L and an S of four are different shapes; a broken group has none.
    assert_ne!(
        Shape::of(&six().group("A1-B1-C1-C2").unwrap()),
        Shape::of(&six().group("A1-B1-B2-C2").unwrap())
    );
    assert_eq!(Shape::of(&six().group("A1-A3").unwrap()), None);
}

#[test]
fn free_polyomino_counts_are_reproduced() {
    let counts: Vec<usize> = (1..=6).map(|n| polyominoes(n).len()).collect();
    assert_eq!(counts, [1, 1, 2, 5, 12, 35]);
}

#[test]
fn shapes_print_as_hashes_and_dots_and_read_back() {
    let s = Shape::of(&six().group("A1-A2-B2-B3").unwrap()).unwrap();
    let text = s.to_string();
    assert_eq!(text.parse::<Shape>().unwrap(), s);
    assert_eq!(s.rows().concat().matches('#').count(), 4);
    assert_eq!("#.# / ###".parse::<Shape>().unwrap().size(), 5);
    assert!("#.# / ...".parse::<Shape>().is_err());
    assert!("#?#".parse::<Shape>().is_err());
}

#[test]
fn contents_are_listed_circles_crosses_pluses() {
    let c: Contents = "+ x O o".parse().unwrap();
    assert_eq!(c.to_string(), "O O X +");
    assert_eq!(c.compact(), "OOX+");
    assert_eq!(c.words(), "2 circles, 1 cross, 1 plus");
    assert!("O Q".parse::<Contents>().is_err());
    let g: Grid = BOARD.parse().unwrap();
    let group = six().group("A1-A2-A3-B3").unwrap();
    assert_eq!(Contents::of(&g, &group).compact(), "OXXX");
}

#[test]
fn the_matcher_says_right_wrong_shape_or_the_other_contents() {
    let g: Grid = BOARD.parse().unwrap();
    let shape: Shape = "### / #..".parse().unwrap();
    let contents: Contents = "OXXX".parse().unwrap();
    let right = six().group("A1-A2-A3-B3").unwrap();
    assert_eq!(judge(&g, &shape, contents, &right), Verdict::Right);
    // Same shape, other contents: said, in order.
    let other = six().group("B1-B2-B3-C3").unwrap();
    assert_eq!(
        judge(&g, &shape, contents, &other),
        Verdict::WrongContents("OOOX".parse().unwrap())
    );
    // Wrong size, wrong shape, not connected: no contents.
    for text in ["A1-A2-A3", "A1-A2-A3-A4", "A1-A2-A3-C3", "A1-A2-B2-B3"] {
        let group = six().group(text).unwrap();
        assert_eq!(
            judge(&g, &shape, contents, &group),
            Verdict::WrongShape,
            "{text}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The matcher agrees with brute force over all placements: an answer is of the
    /// shape exactly when it is one of the shape's placements, and right exactly when
    /// it is also of the contents; and every generated target has a solution.
    #[test]
    fn the_matcher_agrees_with_brute_force(seed in any::<u64>(), rows in 3usize..8, cols in 3usize..8) {
        let dims = Dims::new(rows, cols).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let grid = generate_grid(dims, &mut rng);
        let sizes = [3u8, 4, 5, 6];
        let rounds = generate_targets(&grid, &sizes, 1, &[], &mut rng);
        for (round, &size) in rounds.iter().zip(&sizes) {
            let target = &round[0];
            prop_assert_eq!(target.shape.size(), size as usize);
            let all = target.shape.placements(dims);
            let solutions: Vec<&Group> = all
                .iter()
                .filter(|g| Contents::of(&grid, g) == target.contents)
                .collect();
            prop_assert!(solutions.contains(&&target.example));
            for g in &all {
                let expected = if Contents::of(&grid, g) == target.contents {
                    Verdict::Right
                } else {
                    Verdict::WrongContents(Contents::of(&grid, g))
                };
                prop_assert_eq!(judge(&grid, &target.shape, target.contents, g), expected);
            }
            // Random answers of the same size (mostly not the shape, often broken).
            for _ in 0..200 {
                let mut cells: Vec<Cell> = dims.cells().collect();
                let n = size as usize;
                for i in 0..n {
                    let j = rng.random_range(i..cells.len());
                    cells.swap(i, j);
                }
                let g = Group::new(cells[..n].to_vec());
                let verdict = judge(&grid, &target.shape, target.contents, &g);
                prop_assert_eq!(verdict == Verdict::WrongShape, !all.contains(&g));
            }
            // And random connected groups of every size.
            for s in 1..=7 {
                let g = random_group(dims, s, &mut rng);
                let verdict = judge(&grid, &target.shape, target.contents, &g);
                prop_assert_eq!(verdict == Verdict::WrongShape, !all.contains(&g));
            }
        }
    }
}

#[test]
fn generation_is_seeded_and_every_round_has_distinct_solvable_targets() {
    let dims = Dims::new(12, 16).unwrap();
    let draw = |seed| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let grid = generate_grid(dims, &mut rng);
        let rounds = generate_targets(&grid, &[3, 4, 5, 6], 3, &[], &mut rng);
        (grid, rounds)
    };
    let (grid, rounds) = draw(7);
    assert_eq!(draw(7), (grid.clone(), rounds.clone()));
    assert_ne!(draw(8).0, grid);
    for round in &rounds {
        assert_eq!(round.len(), 3);
        for (i, t) in round.iter().enumerate() {
            assert_eq!(
                judge(&grid, &t.shape, t.contents, &t.example),
                Verdict::Right
            );
            for u in &round[..i] {
                assert!(u.shape != t.shape || u.contents != t.contents);
            }
        }
    }
}
