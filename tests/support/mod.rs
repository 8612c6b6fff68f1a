//! Shared support for integration tests (and, by path, benchmarks): `mod support;` then
//! `support::reference::...`.
pub mod reference;
