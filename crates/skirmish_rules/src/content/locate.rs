//! Turning byte offsets in a content file into line and column numbers, and
//! finding where a value was written so validation errors can point at it.

/// A source text with its line starts.
pub struct Locator<'a> {
    pub src: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Locator<'a> {
    pub fn new(src: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        Locator { src, line_starts }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.src.len());
        while !self.src.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let col = self.src[start..offset].chars().count() + 1;
        (line, col)
    }

    /// The offset of the first `needle` at or after `from`.
    pub fn find_from(&self, from: usize, needle: &str) -> Option<usize> {
        let from = from.min(self.src.len());
        self.src[from..].find(needle).map(|i| i + from)
    }

    /// The offset of the quoted string `"text"` at or after `from`, pointing
    /// at its first character (inside the quotes).
    pub fn find_string(&self, from: usize, text: &str) -> Option<usize> {
        let quoted = format!("\"{text}\"");
        self.find_from(from, &quoted).map(|i| i + 1)
    }

    /// Where the item whose `id` is `id` starts (the id's value), the `nth`
    /// such item counting from 0 (duplicates are found in order). The id
    /// is found however it is written: a raw string, with escapes, with
    /// comments around the colon.
    pub fn find_id(&self, id: &str, nth: usize) -> Option<usize> {
        let mut from = 0;
        let mut seen = 0;
        while let Some(at) = self.find_field(from, "id") {
            from = at + 2;
            let colon = self.skip_trivia(at + 2);
            if !self.src[colon..].starts_with(':') {
                continue;
            }
            let start = self.skip_trivia(colon + 1);
            if let Some((value, inside)) = self.read_string(start)
                && value == id
            {
                if seen == nth {
                    return Some(inside);
                }
                seen += 1;
            }
        }
        None
    }

    /// Where item `index` (from 0) of the list in field `field` starts.
    pub fn find_item(&self, field: &str, index: usize) -> Option<usize> {
        let open = self.skip_trivia(self.find_field(0, field)? + field.len());
        let open = self.skip_trivia(open + self.src[open..].strip_prefix(':').map(|_| 1)?);
        if !self.src[open..].starts_with('[') {
            return None;
        }
        let (mut depth, mut item, mut at) = (0usize, 0usize, open + 1);
        let mut start = Some(self.skip_trivia(at));
        while at < self.src.len() {
            let next = self.skip_trivia(at);
            if next != at {
                at = next;
                continue;
            }
            if depth == 0 && start.is_none() {
                start = Some(at);
            }
            if depth == 0 && item == index && start.is_some_and(|s| s == at) {
                let c = self.src[at..].chars().next()?;
                return (c != ']').then_some(at);
            }
            let c = self.src[at..].chars().next()?;
            match c {
                '"' | 'r' if self.read_string(at).is_some() => {
                    let (_, inside) = self.read_string(at)?;
                    // Past the closing quote (and a raw string's hashes).
                    let body = &self.src[inside..];
                    let hashes = inside - at - 1 - usize::from(c == 'r');
                    let close = format!("\"{}", "#".repeat(hashes));
                    let end = if c == 'r' {
                        body.find(&close)? + close.len()
                    } else {
                        let mut escaped = false;
                        body.char_indices()
                            .find(|&(_, ch)| {
                                let done = ch == '"' && !escaped;
                                escaped = ch == '\\' && !escaped;
                                done
                            })?
                            .0
                            + 1
                    };
                    at = inside + end;
                    continue;
                }
                '(' | '[' | '{' => depth += 1,
                ')' | '}' => depth = depth.checked_sub(1)?,
                ']' if depth == 0 => return None,
                ']' => depth -= 1,
                ',' if depth == 0 => {
                    item += 1;
                    start = None;
                }
                _ => {}
            }
            at += c.len_utf8();
        }
        None
    }

    /// The offset of the first character after whitespace and comments.
    fn skip_trivia(&self, mut at: usize) -> usize {
        loop {
            let rest = &self.src[at.min(self.src.len())..];
            let trimmed = rest.trim_start();
            at += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if let Some(body) = trimmed.strip_prefix("/*") {
                at += 2 + body.find("*/").map_or(body.len(), |e| e + 2);
            } else {
                return at;
            }
        }
    }

    /// The string literal at `at` (quoted with escapes, or raw), as its
    /// value and the offset just inside its opening quote.
    fn read_string(&self, at: usize) -> Option<(String, usize)> {
        let rest = self.src.get(at..)?;
        if let Some(raw) = rest.strip_prefix('r') {
            let hashes = raw.len() - raw.trim_start_matches('#').len();
            let body = raw[hashes..].strip_prefix('"')?;
            let close = format!("\"{}", "#".repeat(hashes));
            let end = body.find(&close)?;
            return Some((body[..end].to_string(), at + 1 + hashes + 1));
        }
        let body = rest.strip_prefix('"')?;
        let mut value = String::new();
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => return Some((value, at + 1)),
                '\\' => match chars.next()? {
                    'n' => value.push('\n'),
                    't' => value.push('\t'),
                    'r' => value.push('\r'),
                    'u' => {
                        let rest = chars.as_str();
                        let (hex, skip) = match rest.strip_prefix('{') {
                            Some(r) => {
                                let end = r.find('}')?;
                                (&r[..end], end + 2)
                            }
                            None => (rest.get(..4)?, 4),
                        };
                        value.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
                        chars = rest[skip..].chars();
                    }
                    other => value.push(other),
                },
                c => value.push(c),
            }
        }
        None
    }

    /// The offset of `field:` at or after `from` (pointing at the field name).
    pub fn find_field(&self, from: usize, field: &str) -> Option<usize> {
        let mut search = from;
        while let Some(at) = self.find_from(search, field) {
            let after = self.src[at + field.len()..].trim_start();
            let boundary = at == 0
                || !self.src[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_');
            if boundary && after.starts_with(':') {
                return Some(at);
            }
            search = at + field.len();
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_lines_and_columns() {
        let l = Locator::new("ab\ncdé\nf");
        assert_eq!(l.position(0), (1, 1));
        assert_eq!(l.position(3), (2, 1));
        assert_eq!(l.position(5), (2, 3)); // the two-byte é
        assert_eq!(l.position(6), (2, 3)); // inside it
        assert_eq!(l.position(7), (2, 4)); // after it
        assert_eq!(l.position(8), (3, 1));
    }

    #[test]
    fn finds_ids_and_fields() {
        let src = "[(id: \"a\", x: 1), (id: \"b\", ref: \"a\", x: 2), (id: \"a\")]";
        let l = Locator::new(src);
        let b = l.find_id("b", 0).unwrap();
        assert_eq!(&src[b..b + 1], "b");
        // The reference to "a" inside b is not an id.
        assert_eq!(l.find_id("a", 1).unwrap(), src.rfind("\"a\"").unwrap() + 1);
        assert_eq!(&src[l.find_field(b, "x").unwrap()..][..4], "x: 2");
        assert!(l.find_field(0, "re").is_none());
    }

    // Issue 51, point 1: errors must not depend on how an id is written.
    #[test]
    fn finds_ids_however_they_are_written() {
        for src in [
            "(id: r\"zz_ogre\", x: 1)",
            "(id: r#\"zz_ogre\"#, x: 1)",
            "(id: \"zz_\\u{6f}gre\", x: 1)",
            "(id: /* the ogre */ \"zz_ogre\", x: 1)",
            "(id: // the ogre\n \"zz_ogre\", x: 1)",
            "(id : \"zz_ogre\", x: 1)",
        ] {
            let l = Locator::new(src);
            let at = l.find_id("zz_ogre", 0).unwrap_or_else(|| panic!("{src}"));
            assert_eq!(&src[at..at + 3], "zz_", "{src}");
        }
        let l = Locator::new("(id: \"a\", kid: \"zz\", idx: \"zz\")");
        assert_eq!(l.find_id("zz", 0), None);
    }

    #[test]
    fn finds_the_items_of_a_list() {
        let src = "(seed: 1, commands: [\n  A(x: (1), s: \"a, ]\"),\n  // B(),\n  B(y: [1, 2]),\n  C,\n])";
        let l = Locator::new(src);
        let at = |i| l.find_item("commands", i).map(|o| &src[o..o + 1]);
        assert_eq!(
            (at(0), at(1), at(2), at(3)),
            (Some("A"), Some("B"), Some("C"), None)
        );
        assert_eq!(l.position(l.find_item("commands", 1).unwrap()), (4, 3));
        assert_eq!(l.find_id("zz", 0), None);
    }
}
