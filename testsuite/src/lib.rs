//! hlslc-testsuite (filled in by its own issue).
