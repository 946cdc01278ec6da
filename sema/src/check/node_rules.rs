//! Rules DXC checks on work-graph node entry functions (`[shader("node")]`), with its wording:
//! the `[NodeLaunch]` value, the system values each launch type may take, the dispatch-grid
//! size and `[MaxRecordsSharedWith]` references.

use super::Checker;
use crate::tast::{AttrArg, RawAttr, VarId};
use crate::types::{ObjectKind, Type};
use hlslc_frontend::ast::{self, Annotation};

/// The most thread groups a node dispatch grid may have (2^24-1).
const MAX_DISPATCH_GROUPS: i64 = 16_777_215;

fn find<'a>(attrs: &'a [RawAttr], name: &str) -> Option<(usize, &'a RawAttr)> {
    attrs.iter().enumerate().find(|(_, a)| a.namespace.is_none() && a.name.eq_ignore_ascii_case(name))
}

impl Checker<'_> {
    /// Checks a node entry function once its parameters are declared (`params`, in order).
    pub(crate) fn check_node_entry(&mut self, f: &ast::FuncDecl, attrs: &[RawAttr], params: &[VarId]) {
        let is_node = find(attrs, "shader").is_some_and(|(_, a)| matches!(a.args.first(), Some(AttrArg::Str(s)) if s.eq_ignore_ascii_case("node")));
        if !is_node || f.body.is_none() {
            return;
        }
        let span_of = |i: usize| f.attrs.get(i).map_or(f.name.span, |a| a.span);
        // `[NodeLaunch]`: the values are case-sensitive; broadcasting when absent.
        let launch = match find(attrs, "nodelaunch") {
            None => "Broadcasting",
            Some((i, a)) => match a.args.first() {
                Some(AttrArg::Str(s)) if s == "broadcasting" => "Broadcasting",
                Some(AttrArg::Str(s)) if s == "coalescing" => "Coalescing",
                Some(AttrArg::Str(s)) if s == "thread" => "Thread",
                _ => {
                    let msg = "attribute 'NodeLaunch' must have one of these values: broadcasting,coalescing,thread";
                    self.error(span_of(i), msg);
                    return;
                }
            },
        };
        for name in ["NodeDispatchGrid", "NodeMaxDispatchGrid"] {
            let Some((i, a)) = find(attrs, name) else { continue };
            let dims: Vec<i64> = a.args.iter().map(|x| if let AttrArg::Int(v) = x { *v } else { 1 }).collect();
            if dims.iter().all(|&d| d > 0) && dims.iter().try_fold(1i64, |p, &d| p.checked_mul(d)).is_none_or(|p| p > MAX_DISPATCH_GROUPS) {
                self.error(span_of(i), format!("'{name}' X * Y * Z product may not exceed 16,777,215 (2^24-1)"));
            }
        }
        for (p, &var) in f.params.iter().zip(params) {
            let at = p.name.as_ref().map_or(p.span, |n| n.span);
            for a in &p.annotations {
                let Annotation::Semantic(sem) = a else { continue };
                let allowed = match launch {
                    "Thread" => !sem.name.to_ascii_lowercase().starts_with("sv_"),
                    "Coalescing" => ["sv_groupindex", "sv_groupthreadid"].contains(&sem.name.to_ascii_lowercase().as_str()),
                    _ => true,
                };
                if !allowed {
                    self.error(at, format!("Invalid system value semantic '{}' for launchtype '{launch}'", sem.name));
                }
            }
            let own = self.m.var(var).name.clone();
            let shared = self.m.var(var).attrs.iter().find(|a| a.namespace.is_none() && a.name.eq_ignore_ascii_case("maxrecordssharedwith"));
            let Some(AttrArg::Word(target)) = shared.and_then(|a| a.args.first()).cloned() else { continue };
            if target == own {
                self.error(at, "attribute MaxRecordsSharedWith must not reference the same parameter it is applied to.");
                continue;
            }
            let is_output = params.iter().any(|&q| {
                let v = self.m.var(q);
                v.name == target
                    && matches!(self.m.types.get(v.ty), Type::Object { kind, .. }
                        if matches!(kind, ObjectKind::NodeOutput | ObjectKind::NodeOutputArray | ObjectKind::EmptyNodeOutput | ObjectKind::EmptyNodeOutputArray))
            });
            if !is_output {
                self.error(at, "attribute MaxRecordsSharedWith must reference a valid output parameter name.");
            }
        }
    }
}
