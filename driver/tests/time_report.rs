//! `-ftime-report` prints the time of each phase; the library records them on every compile.

mod common;
use common::*;
use hlslc::timing::Phase;
use hlslc::{compile, Options, OutputKind, Profile};

#[test]
fn time_report_lists_every_phase_on_stderr() {
    let dir = TempDir::new("timereport");
    let f = dir.file("a.hlsl", GOOD);
    let out = dir.path("a.spv");
    let (f, out) = (f.to_str().unwrap(), out.to_str().unwrap());
    let o = hlslc(&["-T", "ps_6_0", "-spirv", "-ftime-report", "-Fo", out, f]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let err = stderr(&o);
    for p in Phase::ALL {
        assert!(err.contains(p.name()), "missing {} in:\n{err}", p.name());
    }
    assert!(err.contains("total"), "{err}");
    // Without the flag, nothing is printed.
    let o = hlslc(&["-T", "ps_6_0", "-spirv", "-Fo", out, f]);
    assert_eq!(code(&o), 0);
    assert_eq!(stderr(&o), "");
}

#[test]
fn library_records_phase_times_and_skips_the_listing_for_binary_output() {
    let mut o = Options::for_profile(Profile::parse("ps_6_0").unwrap());
    o.spirv = true;
    o.output_kind = OutputKind::Binary;
    let r = compile(GOOD, "a.hlsl", &o, None);
    assert!(r.succeeded(), "{}", r.render_diagnostics());
    assert!(r.times.get(Phase::Sema) > std::time::Duration::ZERO);
    assert!(r.times.get(Phase::Codegen) > std::time::Duration::ZERO);
    // A binary without -Fc needs no disassembly.
    assert!(r.listing.is_none());
    o.listing = true;
    let r = compile(GOOD, "a.hlsl", &o, None);
    assert!(r.listing.as_deref().is_some_and(|l| l.contains("OpEntryPoint")), "{:?}", r.listing);
}
