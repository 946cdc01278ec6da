//! What a negative RUN line expects: the FileCheck prefixes it checks with, the CHECK lines of
//! those prefixes, the error they expect, and whether that error is a language error or a
//! SPIR-V-specific one.
//!
//! The classification rule (documented in [`super`] too): the expected error is the first CHECK
//! line (of the line's prefixes, `-NOT` lines left out) that contains `error`, with the `-SAME:`
//! lines that continue it; without such a line, the first CHECK line. It is *SPIR-V-specific* when
//! its text (case-insensitive) contains one of [`SPIRV_MARKERS`]: it names SPIR-V, Vulkan or a
//! `vk::` attribute, a capability or extension, a `-fspv`/`-fvk`/`-Oconfig` option, a backend limit
//! ("not supported", "unsupported", "unimplemented"), or a rule of the Vulkan resource interface
//! (layout, alignment, packoffset/register overlap, binding, descriptor, heap, push constant, location, builtin,
//! specialization constant, counter variable, image format, SubpassInput, execution mode,
//! stencil_ref, the SPIR-V backend's string variables, the SPIR-V optimizer). Everything else is a
//! *language* error: type errors, undeclared names, wrong arguments, invalid semantics or
//! attributes for a stage, preprocessor errors. A line whose command has no FileCheck (nothing is
//! expected) counts as a language error.

/// The two classes of expected errors.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorClass {
    /// An error in the HLSL program itself, which any HLSL compiler must report.
    Language,
    /// An error of DXC's SPIR-V backend or of Vulkan's rules.
    Spirv,
}

impl ErrorClass {
    pub fn name(self) -> &'static str {
        match self {
            ErrorClass::Language => "language",
            ErrorClass::Spirv => "spirv",
        }
    }
}

/// Lower-case text that makes an expected error SPIR-V-specific.
pub const SPIRV_MARKERS: &[&str] = &[
    "spir-v",
    "spirv",
    "vulkan",
    "vk::",
    "capabilit",
    "extension",
    "-fspv",
    "-fvk",
    "-oconfig",
    "not supported",
    "unsupported",
    "unimplement",
    "layout",
    "aligned",
    "packoffset",
    "overlap",
    "binding",
    "descriptor",
    "heap",
    "push constant",
    "push_constant",
    "location",
    "builtin",
    "specialization constant",
    "counter variable",
    "image format",
    "subpassinput",
    "execution mode",
    "stencil_ref",
    "string variable",
    "optimiz",
];

/// The class of an expected error text (`None`: nothing is expected).
pub fn classify(expected: Option<&str>) -> ErrorClass {
    let Some(text) = expected else { return ErrorClass::Language };
    let lower = text.to_lowercase();
    if SPIRV_MARKERS.iter().any(|m| lower.contains(m)) {
        ErrorClass::Spirv
    } else {
        ErrorClass::Language
    }
}

/// The check prefixes of a FileCheck command line (`CHECK` when it names none).
pub fn filecheck_prefixes(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let name = a.trim_start_matches('-');
        if !a.starts_with('-') {
            continue;
        }
        let (opt, value) = match name.split_once('=') {
            Some((o, v)) => (o, Some(v.to_string())),
            None => (name, None),
        };
        if opt == "check-prefix" || opt == "check-prefixes" {
            let value = value.or_else(|| it.next().cloned()).unwrap_or_default();
            out.extend(value.split(',').map(str::trim).filter(|p| !p.is_empty()).map(String::from));
        }
    }
    if out.is_empty() {
        out.push("CHECK".into());
    }
    out
}

/// The file FileCheck reads its checks from: its first argument that is not an option.
pub fn check_file(args: &[String]) -> Option<&str> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a.starts_with('-') {
            // Options that take their value as the next argument.
            if matches!(a.trim_start_matches('-'), "check-prefix" | "check-prefixes" | "input-file" | "D") {
                it.next();
            }
            continue;
        }
        return Some(a);
    }
    None
}

/// How a CHECK line continues the previous one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `CHECK:`, `-NEXT:`, `-DAG:`, `-LABEL:`, `-EMPTY:`
    Line,
    /// `-SAME:`: more of the line the previous check matched.
    Same,
}

/// A positive check of the file, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub kind: Kind,
    pub pattern: String,
}

/// The positive checks (everything but `-NOT`) of `prefixes` in `text`.
pub fn checks(text: &str, prefixes: &[String]) -> Vec<Check> {
    text.lines().filter_map(|l| directive(l, prefixes)).collect()
}

/// The first directive of `prefixes` on `line` (FileCheck: a prefix not preceded by a word
/// character or `-`, then `:` or `-SUFFIX:`).
fn directive(line: &str, prefixes: &[String]) -> Option<Check> {
    let mut best: Option<(usize, Option<Check>)> = None;
    for prefix in prefixes {
        let mut from = 0;
        while let Some(at) = line[from..].find(prefix.as_str()) {
            let start = from + at;
            from = start + prefix.len();
            let before = line[..start].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                continue;
            }
            let rest = &line[start + prefix.len()..];
            let found = [(":", Some(Kind::Line)), ("-NEXT:", Some(Kind::Line)), ("-DAG:", Some(Kind::Line)), ("-LABEL:", Some(Kind::Line)), ("-EMPTY:", Some(Kind::Line)), ("-SAME:", Some(Kind::Same)), ("-NOT:", None)]
                .iter()
                .find_map(|(suffix, kind)| rest.strip_prefix(suffix).map(|p| kind.map(|kind| Check { kind, pattern: p.trim().to_string() })));
            if let Some(c) = found {
                if best.as_ref().is_none_or(|(pos, _)| start < *pos) {
                    best = Some((start, c));
                }
                break;
            }
        }
    }
    best.and_then(|(_, c)| c)
}

/// The expected error: the first check containing `error` (with its `-SAME` continuations), or
/// the first check when none does.
pub fn expected_error(checks: &[Check]) -> Option<String> {
    let at = checks.iter().position(|c| c.pattern.to_lowercase().contains("error")).or((!checks.is_empty()).then_some(0))?;
    let mut text = checks[at].pattern.clone();
    for c in checks[at + 1..].iter().take_while(|c| c.kind == Kind::Same) {
        text.push(' ');
        text.push_str(&c.pattern);
    }
    Some(text)
}

/// The literal message of a check pattern, to look for in hlslc's output: the text after the
/// last `error:` (the position before it varies), the longest piece between FileCheck's
/// `{{regex}}` and `[[var]]` parts, with runs of white space made one space.
pub fn literal_message(pattern: &str) -> String {
    let text = match pattern.rfind("error:") {
        Some(at) => &pattern[at + "error:".len()..],
        None => pattern,
    };
    let mut pieces = Vec::new();
    let mut rest = text;
    loop {
        let next = [rest.find("{{").map(|i| (i, "}}")), rest.find("[[").map(|i| (i, "]]"))].into_iter().flatten().min_by_key(|(i, _)| *i);
        match next {
            Some((i, close)) => {
                pieces.push(&rest[..i]);
                match rest[i + 2..].find(close) {
                    Some(j) => rest = &rest[i + 2 + j + 2..],
                    None => break,
                }
            }
            None => {
                pieces.push(rest);
                break;
            }
        }
    }
    let longest = pieces.into_iter().map(normalize_space).max_by_key(|p| p.len()).unwrap_or_default();
    longest
}

/// `text` with runs of white space made one space, trimmed (FileCheck ignores such differences).
pub fn normalize_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn prefixes_in_every_spelling() {
        assert_eq!(filecheck_prefixes(&v("/c/x.hlsl")), v("CHECK"));
        assert_eq!(filecheck_prefixes(&v("/c/x.hlsl --check-prefix=VK")), v("VK"));
        assert_eq!(filecheck_prefixes(&v("/c/x.hlsl -check-prefix=WARNING")), v("WARNING"));
        assert_eq!(filecheck_prefixes(&v("/c/x.hlsl --check-prefix ERR")), v("ERR"));
        assert_eq!(filecheck_prefixes(&v("/c/x.hlsl --check-prefixes=CHECK,INT32")), v("CHECK INT32"));
        assert_eq!(check_file(&v("--check-prefix A /c/x.hlsl")), Some("/c/x.hlsl"));
    }

    #[test]
    fn checks_of_the_given_prefixes_only() {
        let text = "// CHECK: error: a\n// VK: error: b\n// CHECK-NOT: error: c\n// XCHECK: error: d\n  // CHECK-NEXT: e\n// CHECK-SAME: f\n";
        let got = checks(text, &v("CHECK"));
        let pats: Vec<&str> = got.iter().map(|c| c.pattern.as_str()).collect();
        assert_eq!(pats, ["error: a", "e", "f"]);
        assert_eq!(got[2].kind, Kind::Same);
        assert_eq!(checks(text, &v("VK"))[0].pattern, "error: b");
    }

    #[test]
    fn expected_error_is_the_first_error_with_its_continuations() {
        let c = checks("// CHECK: warning: w\n// CHECK: error: partial via\n// CHECK-SAME: vk::location(X)\n// CHECK: note: n\n", &v("CHECK"));
        assert_eq!(expected_error(&c).as_deref(), Some("error: partial via vk::location(X)"));
        let c = checks("// CHECK: Using pointers with OpSelect requires capability\n", &v("CHECK"));
        assert_eq!(expected_error(&c).as_deref(), Some("Using pointers with OpSelect requires capability"));
        assert_eq!(expected_error(&[]), None);
    }

    #[test]
    fn literal_message_drops_positions_and_regexes() {
        assert_eq!(literal_message(":13:7: error: discard statement may only be used in pixel shaders"), "discard statement may only be used in pixel shaders");
        assert_eq!(literal_message("fatal error: cannot find {{the}} associated counter variable"), "associated counter variable");
        assert_eq!(literal_message("error:   a   b"), "a b");
        assert_eq!(literal_message("no error here"), "no error here");
    }

    #[test]
    fn classifies_language_and_spirv_errors() {
        for lang in [
            "error: cannot initialize return object of type 'float4' with an lvalue of type 'PSInput'",
            ":13:7: error: discard statement may only be used in pixel shaders",
            "error: use of undeclared identifier 'foo'",
            "18:19: error: invalid usage of semantic 'USER_IN' in shader profile ms",
            "error: input semantic 'ABC' used more than once",
            "5:19: error: SV_InnerCoverage must be of uint type.",
            "4:6: error: compute entry point must have a valid numthreads attribute",
            ":12:3: error: no matching function for call to 'InterlockedAdd'",
            "3:10: fatal error: 'DoesntExist.hlsl' file not found",
            "error: elements of typed buffers and textures must be scalars or vectors",
        ] {
            assert_eq!(classify(Some(lang)), ErrorClass::Language, "{lang}");
        }
        for spirv in [
            ":6:22: error: no equivalent for GatherCmpAlpha intrinsic method in Vulkan",
            "error: Texture resource type 'FeedbackTexture2D' is not supported with -spirv",
            "error: vk::ext_builtin_input cannot be used together with vk::ext_builtin_output",
            "Using pointers with OpSelect requires capability",
            "error: stage input location #3 already consumed by semantic 'M'",
            "error: cannot have more than one push constant block",
            "error: field \"gFoo\" at register(c5) overlaps with previous members",
            "error: WaveMultiPrefixCountBits intrinsic function unimplemented",
            "error: Resource/sampler heaps are not allowed as function parameters.",
            "invalid -fvk-bind-sampler-heap argument: 'a'",
            ":6:28: error: missing default value for specialization constant",
            "error: Shaders must not specify more than one of stencil_ref_unchanged_back, stencil_ref_greater_equal_back",
            "4:8: error: Found uninitialized string variable.",
            ":20:31: warning: The offset provided in the attribute should be 16-byte aligned.",
            "-Oconfig should not be used together with -O",
            "error: casting to type 'SamplerState' unimplemente",
        ] {
            assert_eq!(classify(Some(spirv)), ErrorClass::Spirv, "{spirv}");
        }
        assert_eq!(classify(None), ErrorClass::Language);
    }
}
