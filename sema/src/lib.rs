//! hlslc-sema (filled in by its own issue).
