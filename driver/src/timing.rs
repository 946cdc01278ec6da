//! Where one compilation spends its time: the phases `-ftime-report` prints and the benchmarks
//! (`cargo bench -p hlslc --bench compile`) add up.

use std::time::{Duration, Instant};

/// One phase of a compilation, in pipeline order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// Decoding the input, the preprocessor and the lexer.
    Preprocess,
    /// The parser.
    Parse,
    /// Semantic analysis: the typed AST and the stage checks.
    Sema,
    /// Lowering the typed AST to SPIR-V words or to the DXIL IR.
    Codegen,
    /// The SPIR-V optimizer (`-O1`..`-O3`).
    Optimize,
    /// Writing the output: SPIR-V disassembly, DXIL text, bitcode and container.
    Serialize,
}

impl Phase {
    /// Every phase, in pipeline order.
    pub const ALL: [Phase; 6] = [Phase::Preprocess, Phase::Parse, Phase::Sema, Phase::Codegen, Phase::Optimize, Phase::Serialize];
    /// The phase's name in `-ftime-report`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Preprocess => "preprocess",
            Phase::Parse => "parse",
            Phase::Sema => "sema",
            Phase::Codegen => "codegen",
            Phase::Optimize => "optimize",
            Phase::Serialize => "serialize",
        }
    }
}

/// Time spent in each [`Phase`] of one compilation. Always recorded (two clock reads a phase).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    times: [Duration; 6],
}

impl PhaseTimes {
    /// The time spent in `phase`.
    pub fn get(&self, phase: Phase) -> Duration {
        self.times[phase as usize]
    }
    /// Adds `d` to `phase`.
    pub fn add(&mut self, phase: Phase, d: Duration) {
        self.times[phase as usize] += d;
    }
    /// Runs `f`, adding its time to `phase`.
    pub fn time<T>(&mut self, phase: Phase, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let r = f();
        self.add(phase, start.elapsed());
        r
    }
    /// The sum of all phases.
    pub fn total(&self) -> Duration {
        self.times.iter().sum()
    }
    /// Adds every phase of `other` (for sums over many compilations).
    pub fn accumulate(&mut self, other: &PhaseTimes) {
        for p in Phase::ALL {
            self.add(p, other.get(p));
        }
    }
    /// The report `-ftime-report` prints on standard error, in the spirit of clang's.
    pub fn report(&self) -> String {
        let total = self.total().as_secs_f64();
        let mut s = String::from("===-------------------------------------------------------------------------===\n");
        s.push_str("                          hlslc time report\n");
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str("   Wall Time (ms)    Share  Phase\n");
        for p in Phase::ALL {
            let t = self.get(p).as_secs_f64();
            let share = if total > 0.0 { 100.0 * t / total } else { 0.0 };
            s.push_str(&format!("   {:>14.3}   {:>5.1}%  {}\n", t * 1e3, share, p.name()));
        }
        s.push_str(&format!("   {:>14.3}  100.0%  total\n", total * 1e3));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_add_up_and_report_names_each() {
        let mut t = PhaseTimes::default();
        t.add(Phase::Sema, Duration::from_millis(3));
        t.add(Phase::Parse, Duration::from_millis(1));
        t.add(Phase::Sema, Duration::from_millis(1));
        assert_eq!(t.get(Phase::Sema), Duration::from_millis(4));
        assert_eq!(t.total(), Duration::from_millis(5));
        let r = t.report();
        for p in Phase::ALL {
            assert!(r.contains(p.name()), "{r}");
        }
        assert!(r.contains("80.0%  sema"), "{r}");
    }
}
