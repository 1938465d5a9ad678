//! Reading a file of content safely: only a regular file (not a pipe or a
//! device, which could be read forever), of bounded size.

use std::path::Path;

/// The largest file of content read, in bytes (the shipped ones are a few
/// dozen kilobytes).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// A content file's text: only a regular file (not a pipe or a device,
/// which could be read forever), of at most [`MAX_FILE_BYTES`].
pub fn read_text(file: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(file).map_err(|e| format!("cannot read the file: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "the file is {} bytes: content files are at most {MAX_FILE_BYTES}",
            meta.len()
        ));
    }
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| format!("cannot read the file: {e}"))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "the file grew past {MAX_FILE_BYTES} bytes as it was read"
        ));
    }
    // A byte-order mark some editors put first is not content.
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}
