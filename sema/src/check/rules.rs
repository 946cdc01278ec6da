//! Declaration rules DXC enforces with its own wording (checked where declarations are made):
//! operator overloading, `[numthreads]` group sizes, `[WaveSize]` on entry points, semantic
//! indices and `groupshared` parameters.

use super::Checker;
use crate::tast::{AttrArg, RawAttr, Stage};
use hlslc_frontend::ast::{self, Annotation, Ident, Modifier};

/// Operators HLSL 2021 never lets a struct overload (assignment forms, shifts, member access,
/// increment/decrement).
const NOT_OVERLOADABLE: &[&str] = &[
    "=", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "<<=", ">>=", "->*", "->", "++", "--",
];

impl Checker<'_> {
    /// `operatorOP` as a function name: some operators may never be overloaded, the others only
    /// by struct members.
    pub(crate) fn check_operator_name(&mut self, name: &Ident, member: bool) {
        let Some(op) = name.name.strip_prefix("operator") else { return };
        if op.is_empty() || op.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            return;
        }
        if NOT_OVERLOADABLE.contains(&op) {
            self.error(name.span, format!("overloading '{}' is not allowed", name.name));
        } else if !member {
            self.error(name.span, format!("overloading non-member '{}' is not allowed", name.name));
        }
    }

    /// `[numthreads(x, y, z)]` whose group size is outside 1..1024: DXC warns and ignores the
    /// attribute (a compute entry point then lacks one).
    pub(crate) fn check_numthreads(&mut self, f: &ast::FuncDecl, attrs: &[RawAttr]) {
        for (a, raw) in f.attrs.iter().zip(attrs) {
            if raw.namespace.is_some() || !raw.name.eq_ignore_ascii_case("numthreads") {
                continue;
            }
            if let Some((x, y, z)) = numthreads_args(raw) {
                let size = x.saturating_mul(y).saturating_mul(z);
                if !(1..=1024).contains(&size) {
                    self.warning(
                        a.span,
                        format!("Group size of {size} ({x} * {y} * {z}) is outside of valid range [1..1024] - attribute will be ignored"),
                    );
                }
            }
        }
    }

    /// Checks the semantics of a declaration: `SV_Target` takes indices 0 to 7.
    pub(crate) fn check_semantics(&mut self, anns: &[Annotation]) {
        for a in anns {
            let Annotation::Semantic(id) = a else { continue };
            let digits = id.name.len() - id.name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            let (base, index) = id.name.split_at(id.name.len() - digits);
            if base.eq_ignore_ascii_case("SV_Target") && index.parse::<u64>().is_ok_and(|i| i > 7) {
                self.error(
                    id.span,
                    format!("'{}' is defined with semantic index {index}, but only values 0 through 7 are supported", id.name),
                );
            }
        }
    }

    /// `groupshared` parameters are an HLSL 202x feature: DXC warns before (once per written
    /// declaration, so not again for a template's instances).
    pub(crate) fn warn_groupshared_params(&mut self, f: &ast::FuncDecl) {
        if self.opts.hlsl_version >= 2022 {
            return;
        }
        for p in &f.params {
            if let Some(m) = p.modifiers.iter().find(|m| m.modifier == Modifier::Groupshared) {
                self.warning(m.span, "Support for groupshared parameter annotation not added until HLSL 202x");
            }
        }
    }

    /// Checks the attributes DXC validates on entry functions (the `-E` function, or a library's
    /// `[shader]` functions): `[WaveSize(min[, max[, preferred]])]`.
    pub(crate) fn check_entry_attrs(&mut self, f: &ast::FuncDecl, attrs: &[RawAttr]) {
        let Some(stage) = self.opts.stage() else { return };
        let is_entry = if stage == Stage::Library {
            attrs.iter().any(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("shader"))
        } else {
            f.name.name == self.opts.entry
        };
        if !is_entry {
            return;
        }
        if stage != Stage::Library {
            if let Some(msg) = shader_attr_conflict(attrs, &f.name.name, stage, &self.opts.profile) {
                let at = f.attrs.iter().find(|a| a.namespace.is_none() && a.name.name.eq_ignore_ascii_case("shader"));
                self.error(at.map_or(f.name.span, |a| a.span), msg);
            }
        }
        for (a, raw) in f.attrs.iter().zip(attrs) {
            if raw.namespace.is_some() || !raw.name.eq_ignore_ascii_case("wavesize") {
                continue;
            }
            let span = a.span;
            let n = raw.args.len();
            if n == 0 {
                self.error(span, "'WaveSize' attribute takes at least 1 argument");
                continue;
            }
            if n > 3 {
                self.error(span, "'WaveSize' attribute takes no more than 3 arguments");
                continue;
            }
            if n > 1 && self.opts.shader_model() < (6, 8) {
                self.error(span, "WaveSize only takes multiple arguments in Shader Model 6.8 or higher");
                continue;
            }
            let values: Vec<i64> = raw.args.iter().map(|x| if let AttrArg::Int(v) = x { *v } else { 0 }).collect();
            if values.iter().any(|&v| !(4..=128).contains(&v) || v.count_ones() != 1) {
                self.error(span, "WaveSize arguments must be between 4 and 128 and a power of 2");
                continue;
            }
            if n > 1 && values[0] == values[1] {
                self.error(span, "Wave Size Range minimum and maximum are equal");
            } else if n == 3 && !(values[0]..=values[1]).contains(&values[2]) {
                let (min, max, pref) = (values[0], values[1], values[2]);
                self.error(span, format!("Preferred WaveSize value {pref} must be between {min} and {max}"));
            }
        }
    }
}

/// The three integer arguments of a `[numthreads]` attribute.
pub(crate) fn numthreads_args(a: &RawAttr) -> Option<(i64, i64, i64)> {
    let v: Vec<i64> = a.args.iter().filter_map(|x| if let AttrArg::Int(n) = x { Some(*n) } else { None }).collect();
    (v.len() == 3).then(|| (v[0], v[1], v[2]))
}

/// DXC's error when the entry function of a stage profile has a `[shader("...")]` attribute of
/// another stage.
pub(crate) fn shader_attr_conflict(attrs: &[RawAttr], func: &str, stage: Stage, profile: &str) -> Option<String> {
    let attr = attrs.iter().find(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("shader"))?;
    let Some(AttrArg::Str(name)) = attr.args.first() else { return None };
    let named = Stage::from_attribute(name)?;
    (named != stage).then(|| {
        format!(
            "entry type '{}' from profile '{profile}' conflicts with shader attribute type '{name}' on entry function '{}'.",
            stage.name(),
            func
        )
    })
}
