//! Descriptor set and binding numbers of resource variables, as DXC's
//! `DeclResultIdMapper::decorateResourceBindings` assigns them.
//!
//! With `-fvk-bind-register`, every resource must have a `register()` named by one of the options
//! (and `$Globals` needs `-fvk-bind-globals`); nothing else applies. Otherwise, in three passes
//! over the resources in declaration order (`$Globals` last):
//! 1. `[[vk::binding(b, s)]]` and `[[vk::counter_binding(b)]]`;
//! 2. `register(xN, spaceM)`: binding N plus the `-fvk-x-shift` of set M (a shift given for set M
//!    wins over one given for `all`), in set M;
//! 3. the rest, in order: the lowest binding number of the set that is free (for as many numbers
//!    as the resource takes), from 0, or from the shift of its register class with
//!    `-fvk-auto-shift-bindings`. The set is the buffer's for a counter, M for `register(spaceM)`,
//!    else the default set (`-auto-binding-space`, else 0); `$Globals` takes `-fvk-bind-globals`
//!    when given.
//!
//! A resource takes one binding number, or with `-fspv-flatten-resource-arrays` one per element
//! of its (fixed-size) array. Explicit bindings that overlap are kept as written, as DXC does.
//! Bindings given to descriptor heaps with `-fvk-bind-*-heap` are reserved first.

use super::{Lowerer, R};
use crate::id::SpvId;
use crate::types::Decoration;
use hlslc_frontend::Span;
use hlslc_sema::tast::Binding;
use spirv::Decoration as D;
use std::collections::BTreeSet;

/// A variable that takes a descriptor binding.
pub(crate) struct Bound {
    pub var: SpvId,
    pub binding: Binding,
    /// For an associated counter: the index in the list of the buffer it counts.
    pub counter_of: Option<usize>,
    /// Register class letter of the resource's kind (`b`, `t`, `s`, `u`), for
    /// `-fvk-auto-shift-bindings`.
    pub class: Option<char>,
    /// Binding numbers it takes with `-fspv-flatten-resource-arrays`.
    pub count: u32,
    /// Declaration order.
    pub order: u64,
    pub span: Option<Span>,
    /// The `$Globals` buffer.
    pub globals: bool,
    /// A global struct of resources: the variables of its resources, each with its binding
    /// number's offset from the struct's (`var` is the first of them).
    pub parts: Vec<(SpvId, u32)>,
    /// `[[vk::combinedImageSampler]]` on a texture (`Some(false)`) or a sampler (`Some(true)`):
    /// its register takes the `t` shift, whatever its class (SPIR-V.rst).
    pub combined: Option<bool>,
}

fn lower_err<T>(message: String, span: Option<Span>) -> R<T> {
    Err(super::LowerError { fatal: false, message, span, notes: Vec::new() })
}

impl<'m> Lowerer<'m> {
    fn shift(&self, class: char, set: u32) -> u32 {
        let o = self.opts;
        o.binding_shifts
            .iter()
            .find(|(c, _, s)| *c == class && *s == set)
            .map(|(_, sh, _)| *sh)
            .or_else(|| o.binding_shifts_all.iter().find(|(c, _)| *c == class).map(|(_, sh)| *sh))
            .unwrap_or(0)
    }

    pub(crate) fn assign_bindings(&mut self, mut bound: Vec<Bound>) -> R<()> {
        // Counters point at their buffer by index: sort a permutation and remap.
        let mut perm: Vec<usize> = (0..bound.len()).collect();
        perm.sort_by_key(|&i| (bound[i].globals, bound[i].order, bound[i].counter_of.is_some()));
        let mut inverse = vec![0; bound.len()];
        for (new, &old) in perm.iter().enumerate() {
            inverse[old] = new;
        }
        let mut slots: Vec<Option<Bound>> = bound.drain(..).map(Some).collect();
        let mut bound: Vec<Bound> = perm.iter().map(|&i| slots[i].take().expect("permutation")).collect();
        for b in &mut bound {
            b.counter_of = b.counter_of.map(|i| inverse[i]);
        }
        if !self.opts.bind_registers.is_empty() {
            return self.bind_registers(&bound);
        }
        let default_set = self.opts.auto_binding_space.unwrap_or(0);
        let mut used: BTreeSet<(u32, u32)> = BTreeSet::new();
        for (binding, set) in
            [self.opts.resource_heap_binding, self.opts.sampler_heap_binding, self.opts.counter_heap_binding].into_iter().flatten()
        {
            used.insert((set, binding));
        }
        // A global struct of resources takes a binding number per resource it holds; then, as
        // in DXC, every array of resources takes one per element too.
        let flatten = self.opts.flatten_resource_arrays || bound.iter().any(|b| !b.parts.is_empty());
        let count = |b: &Bound| if flatten { b.count.max(1) } else { 1 };
        let take = |used: &mut BTreeSet<(u32, u32)>, set: u32, binding: u32, n: u32| {
            for i in 0..n {
                used.insert((set, binding + i));
            }
        };
        // The set of each variable (a counter's is its buffer's), and whether it is bound yet.
        let mut sets = Vec::with_capacity(bound.len());
        let mut done = vec![false; bound.len()];
        for b in &bound {
            let set = match b.counter_of {
                Some(main) => sets[main],
                None => self.set_of(&b.binding, default_set),
            };
            sets.push(set);
        }
        // 1. vk::binding / vk::counter_binding.
        for (i, b) in bound.iter().enumerate() {
            let explicit = match b.counter_of {
                Some(_) => b.binding.vk_counter_binding,
                None => b.binding.vk_binding.map(|(n, _)| n),
            };
            if let Some(n) = explicit {
                take(&mut used, sets[i], n, count(b));
                self.decorate_bound(b, sets[i], n);
                done[i] = true;
            }
        }
        // 2. register(xN, spaceM).
        for (i, b) in bound.iter().enumerate() {
            if done[i] || b.counter_of.is_some() {
                continue;
            }
            if let Some((letter, n)) = b.binding.register {
                let letter = if b.combined.is_some() { 't' } else { letter };
                let binding = n + self.shift(letter, sets[i]);
                take(&mut used, sets[i], binding, count(b));
                self.decorate_bound(b, sets[i], binding);
                done[i] = true;
            }
        }
        // 3. The rest, in declaration order.
        for (i, b) in bound.iter().enumerate() {
            if done[i] {
                continue;
            }
            let shift = match b.class {
                Some(c) if self.opts.auto_shift_bindings => self.shift(c, sets[i]),
                _ => 0,
            };
            if b.globals {
                if let Some((binding, set)) = self.opts.bind_globals {
                    let shift = if self.opts.auto_shift_bindings { self.shift('b', set) } else { 0 };
                    self.decorate_bound(b, set, binding + shift);
                    continue;
                }
            }
            let n = count(b);
            let mut first = shift;
            while (0..n).any(|k| used.contains(&(sets[i], first + k))) {
                first += 1;
            }
            take(&mut used, sets[i], first, n);
            self.decorate_bound(b, sets[i], first);
        }
        self.heaps.used = used;
        Ok(())
    }

    /// The descriptor set of a resource: its `vk::binding` set, else its `register` space (the
    /// default set for space 0 under `-auto-binding-space`), else the default set.
    fn set_of(&self, binding: &Binding, default_set: u32) -> u32 {
        if let Some((_, set)) = binding.vk_binding {
            return set.unwrap_or(default_set);
        }
        if binding.space == 0 {
            default_set
        } else {
            binding.space
        }
    }

    /// `-fvk-bind-register`: every binding comes from the command line.
    fn bind_registers(&mut self, bound: &[Bound]) -> R<()> {
        let default_space = self.opts.auto_binding_space.unwrap_or(0);
        for b in bound {
            if b.globals {
                let Some((binding, set)) = self.opts.bind_globals else {
                    return lower_err("-fvk-bind-register requires Globals buffer to be bound with -fvk-bind-globals".into(), b.span);
                };
                self.decorate_bound(b, set, binding);
                continue;
            }
            let Some((letter, n)) = b.binding.register else {
                return lower_err("-fvk-bind-register requires register annotations on all resources".into(), b.span);
            };
            if b.counter_of.is_some() {
                return lower_err("-fvk-bind-register for RW/Append/Consume StructuredBuffer unimplemented".into(), b.span);
            }
            let space = if b.binding.space == 0 { default_space } else { b.binding.space };
            let found = self.opts.bind_registers.iter().find(|r| r.0 == letter && r.1 == n && r.2 == space);
            let Some(&(_, _, _, binding, set)) = found else {
                return lower_err("missing -fvk-bind-register for resource".into(), b.span);
            };
            self.decorate_bound(b, set, binding);
        }
        Ok(())
    }

    /// Decorates a bound variable, or each resource of a global struct of resources.
    fn decorate_bound(&mut self, b: &Bound, set: u32, binding: u32) {
        if let Some(sampler) = b.combined {
            self.combined.push(super::combined::Member { var: b.var, sampler, set, binding, span: b.span });
        }
        if b.parts.is_empty() {
            self.decorate_binding(b.var, set, binding);
        }
        for &(var, offset) in &b.parts {
            self.decorate_binding(var, set, binding + offset);
        }
    }

    pub(crate) fn decorate_binding(&mut self, var: SpvId, set: u32, binding: u32) {
        self.b.ctx.decorate(var, &Decoration::with_literals(D::DescriptorSet, &[set]));
        self.b.ctx.decorate(var, &Decoration::with_literals(D::Binding, &[binding]));
    }
}
