//! Which resource a local designates along the control flow.
//!
//! A local (or parameter) holding resources is not memory: its state is the [`ResValue`] of
//! its last assignment on the path being lowered (`stmt.rs::resource_local`, `resvalue.rs`).
//! Where paths meet, the states are merged: a local assigned different resources in the two
//! arms of an `if` designates no resource after it (a use there is an error that names it,
//! where DXC's legalization would leave an `OpSelect`/`OpPhi` of pointers that Vulkan does not
//! allow); one assigned in each arm and used only inside them is fine, and so is one assigned
//! under a constant condition (only the arm taken is lowered).
//!
//! Loops and switches are treated conservatively: a local assigned inside one designates no
//! resource at the start of the body (of each case) until it is assigned again there, nor after
//! the statement.

use super::resvalue::ResValue;
use super::Lowerer;
use hlslc_sema::tast::{ExprKind, StmtId, VarId};

/// The states of the locals holding resources at one point of the lowering.
pub(crate) type ResSnapshot = Vec<(VarId, Option<ResValue>)>;

impl<'m> Lowerer<'m> {
    pub(crate) fn res_snapshot(&self) -> ResSnapshot {
        let mut vars: Vec<VarId> = self.resource_locals.keys().copied().collect();
        vars.sort_by_key(|v| v.0);
        vars.into_iter().map(|v| (v, self.res_state(v))).collect()
    }

    /// The states of `like`'s locals now.
    fn res_snapshot_like(&self, like: &ResSnapshot) -> ResSnapshot {
        like.iter().map(|(v, _)| (*v, self.res_state(*v))).collect()
    }

    pub(crate) fn res_restore(&mut self, snap: &ResSnapshot) {
        for (v, s) in snap {
            if let Some(s) = s {
                self.set_res_state(*v, s.clone());
            }
        }
    }

    /// The states after paths ending in `a` and `b` meet.
    fn res_merged(a: &ResSnapshot, b: &ResSnapshot) -> ResSnapshot {
        a.iter()
            .zip(b)
            .map(|((v, x), (_, y))| {
                let s = match (x, y) {
                    (Some(x), Some(y)) => Some(x.merge(y)),
                    (x, _) => x.clone(),
                };
                (*v, s)
            })
            .collect()
    }

    /// Lowers the arms of an `if` (run by `arms`, which lowers the arm it is given and says
    /// whether control can leave it to the merge) and merges the states they leave.
    pub(crate) fn res_if(&mut self, then_open: impl FnOnce(&mut Self) -> super::R<bool>, else_open: impl FnOnce(&mut Self) -> super::R<bool>) -> super::R<()> {
        let before = self.res_snapshot();
        let t = then_open(self)?.then(|| self.res_snapshot_like(&before));
        self.res_restore(&before);
        let f = else_open(self)?.then(|| self.res_snapshot_like(&before));
        let after = match (t, f) {
            (Some(a), Some(b)) => Self::res_merged(&a, &b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => before,
        };
        self.res_restore(&after);
        Ok(())
    }

    /// The locals holding resources that statement `s` assigns (by the source range of the
    /// statement: an assignment whose span lies inside it).
    pub(crate) fn res_assigned_in(&self, s: StmtId) -> Vec<VarId> {
        let m = self.m;
        if self.resource_locals.is_empty() {
            return Vec::new();
        }
        let Some(range) = m.spans.stmts.get(s.0 as usize).copied() else { return Vec::new() };
        let mut out = Vec::new();
        for (i, e) in m.exprs.iter().enumerate() {
            let ExprKind::Assign { op: None, lhs, .. } = e.kind else { continue };
            let Some(sp) = m.spans.exprs.get(i) else { continue };
            if sp.file != range.file || sp.start < range.start || sp.end > range.end {
                continue;
            }
            let mut root = lhs;
            loop {
                match m.expr(root).kind {
                    ExprKind::Field { base, .. } | ExprKind::Index { base, .. } => root = base,
                    ExprKind::Cast { expr, .. } => root = expr,
                    _ => break,
                }
            }
            if let ExprKind::Var(v) = m.expr(root).kind {
                if self.resource_locals.contains_key(&v) && !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// Before a loop body or a switch case: the locals the statement assigns designate no
    /// resource (another iteration, or another case, may have assigned them).
    pub(crate) fn res_forget(&mut self, vars: &[VarId]) {
        for &v in vars {
            if self.res_state(v).is_some() {
                self.set_res_state(v, ResValue::Conflict);
            }
        }
    }
}
