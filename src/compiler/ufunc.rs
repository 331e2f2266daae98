//! `@vectorize`.

use crate::language::Module;

pub fn register(_m: &Module, _cuda: bool) {}
