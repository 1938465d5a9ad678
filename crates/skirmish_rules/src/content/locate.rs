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

    /// Where the item whose `id` is `id` starts (the id's quoted value), the
    /// `nth` such item counting from 0 (duplicates are found in order).
    pub fn find_id(&self, id: &str, nth: usize) -> Option<usize> {
        let mut from = 0;
        let mut seen = 0;
        while let Some(at) = self.find_string(from, id) {
            let before = self.src[..at - 1].trim_end();
            if before.ends_with(':') && before[..before.len() - 1].trim_end().ends_with("id") {
                if seen == nth {
                    return Some(at);
                }
                seen += 1;
            }
            from = at + id.len();
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
}
