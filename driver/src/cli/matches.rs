//! The recognized arguments, looked up by option id: what [`super::to_options`] reads.
//!
//! [`super::normalize::recognize`] has already matched every argument against the option table
//! (spelling, joined or separate values, value counts), so nothing is left to parse: this is an
//! index over its result. (Building a clap command of ~200 arguments for every run cost more CPU
//! than preprocessing, parsing and checking a typical shader.)

use super::normalize::Arg;
use super::table::OptSpec;
use hlslc_frontend::fxhash::FxMap as HashMap;

/// Every occurrence of every option given, by [`super::table::OptSpec::id`], in command-line
/// order, and the inputs.
#[derive(Default)]
pub(super) struct Matches {
    /// id → (position on the command line, values) of each occurrence.
    opts: HashMap<String, Vec<(usize, Vec<String>)>>,
    /// The table entries given, each once (by address: entries are `'static`), so that a walk
    /// of the ~200-entry table can skip the absent ones without computing their ids.
    given: Vec<&'static OptSpec>,
    inputs: Vec<String>,
}

impl Matches {
    pub(super) fn new(args: &[Arg]) -> Matches {
        let mut m = Matches::default();
        for (pos, a) in args.iter().enumerate() {
            match a {
                Arg::Input(path) => m.inputs.push(path.clone()),
                Arg::Opt { spec, values, .. } => {
                    if !m.given(spec) {
                        m.given.push(spec);
                    }
                    m.opts.entry(spec.id()).or_default().push((pos, values.clone()))
                }
            }
        }
        m
    }

    /// This table entry was given at least once.
    pub(super) fn given(&self, spec: &'static OptSpec) -> bool {
        self.given.iter().any(|g| std::ptr::eq(*g, spec))
    }

    /// The option was given at least once.
    pub(super) fn present(&self, id: &str) -> bool {
        self.opts.contains_key(id)
    }

    /// Every value of every occurrence, in order (`inputs`: the input files).
    pub(super) fn values(&self, id: &str) -> Vec<String> {
        if id == "inputs" {
            return self.inputs.clone();
        }
        self.opts.get(id).map(|occ| occ.iter().flat_map(|(_, v)| v.iter().cloned()).collect()).unwrap_or_default()
    }

    /// Each occurrence: its position and its values.
    pub(super) fn occurrences(&self, id: &str) -> &[(usize, Vec<String>)] {
        self.opts.get(id).map_or(&[], |v| v.as_slice())
    }

    /// Position of the last occurrence.
    pub(super) fn last_position(&self, id: &str) -> Option<usize> {
        self.opts.get(id).and_then(|v| v.last()).map(|(p, _)| *p)
    }
}
