//! The tier notation (the tier lines of `docs/rules.md#power-roll`, such
//! as "6 + M damage; push 2; M < STRONG slowed (save ends)"): any text is
//! parsed
//! without a panic, the same way twice, and an error points inside the
//! line at what it could not read (the loader adds its offset to the
//! line's place in the file).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skirmish_rules::ability::notation::parse_tier;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let first = parse_tier(line);
    assert_eq!(first, parse_tier(line), "parsed two ways: {line:?}");
    if let Err(e) = first {
        assert!(
            e.offset <= line.len() && line.is_char_boundary(e.offset),
            "offset {} outside {line:?}",
            e.offset
        );
        assert!(
            line[e.offset..].starts_with(e.fragment.as_str()),
            "{e:?} is not at its offset in {line:?}"
        );
    }
});
