//! Turning the bytes of a source file into text.
//!
//! UTF-8 (with or without a byte-order mark) is taken as is, without copying. UTF-16 with a
//! byte-order mark is decoded, as dxc accepts it. Bytes that are not valid in the encoding are
//! replaced by U+FFFD and reported: [`Decoded::errors`] holds the byte offset *in the decoded
//! text* of each replacement, so a diagnostic can point at the line and column.

/// At most this many invalid sequences are reported individually.
pub const MAX_REPORTED: usize = 20;

/// A decoded source file.
#[derive(Debug)]
pub struct Decoded {
    /// The text, invalid sequences replaced by U+FFFD.
    pub text: String,
    /// Offsets in `text` of the first [`MAX_REPORTED`] replacement characters that stand for
    /// invalid input.
    pub errors: Vec<usize>,
    /// Total number of invalid sequences (may exceed `errors.len()`).
    pub error_count: usize,
    /// The encoding found: `"UTF-8"`, `"UTF-16LE"`, `"UTF-16BE"`.
    pub encoding: &'static str,
}

/// Decodes a source file's bytes (see the module documentation).
pub fn decode(bytes: Vec<u8>) -> Decoded {
    if bytes.starts_with(&[0xFF, 0xFE]) {
        return decode_utf16(&bytes[2..], u16::from_le_bytes, "UTF-16LE");
    }
    if bytes.starts_with(&[0xFE, 0xFF]) {
        return decode_utf16(&bytes[2..], u16::from_be_bytes, "UTF-16BE");
    }
    let bytes = if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) { bytes[3..].to_vec() } else { bytes };
    match String::from_utf8(bytes) {
        Ok(text) => Decoded { text, errors: Vec::new(), error_count: 0, encoding: "UTF-8" },
        Err(e) => decode_utf8_lossy(e.as_bytes()),
    }
}

fn decode_utf8_lossy(bytes: &[u8]) -> Decoded {
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut errors = Vec::new();
    let mut error_count = 0;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            if errors.len() < MAX_REPORTED {
                errors.push(text.len());
            }
            error_count += 1;
            text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    Decoded { text, errors, error_count, encoding: "UTF-8" }
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16, encoding: &'static str) -> Decoded {
    let mut text = String::with_capacity(bytes.len() / 2 + 16);
    let mut errors = Vec::new();
    let mut error_count = 0;
    let mut note_error = |text: &mut String| {
        if errors.len() < MAX_REPORTED {
            errors.push(text.len());
        }
        error_count += 1;
        text.push(char::REPLACEMENT_CHARACTER);
    };
    let units = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    for c in char::decode_utf16(units) {
        match c {
            Ok(c) => text.push(c),
            Err(_) => note_error(&mut text),
        }
    }
    if bytes.len() % 2 == 1 {
        note_error(&mut text);
    }
    Decoded { text, errors, error_count, encoding }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_utf8_is_kept_and_bom_dropped() {
        let d = decode(b"\xEF\xBB\xBFfloat x;\n".to_vec());
        assert_eq!(d.text, "float x;\n");
        assert!(d.errors.is_empty());
    }

    #[test]
    fn invalid_utf8_is_located() {
        let d = decode(b"ab\ncd\xFFe\xC3".to_vec());
        assert_eq!(d.text, "ab\ncd\u{FFFD}e\u{FFFD}");
        assert_eq!(d.errors, vec![5, 9]);
        assert_eq!(d.error_count, 2);
    }

    #[test]
    fn utf16_with_bom_is_decoded() {
        let mut b = vec![0xFF, 0xFE];
        for u in "int a;".encode_utf16() {
            b.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(b);
        assert_eq!(d.text, "int a;");
        assert_eq!(d.encoding, "UTF-16LE");
        let d = decode(vec![0xFE, 0xFF, 0x00, 0x41, 0xD8, 0x00, 0x00]);
        assert_eq!(d.text, "A\u{FFFD}\u{FFFD}");
        assert_eq!(d.error_count, 2);
    }
}
