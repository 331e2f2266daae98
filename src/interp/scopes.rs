//! A function's local names, decided once per definition as CPython's compiler does: every
//! name the body binds anywhere (assignment, `for`, `with ... as`, `except ... as`, `import`,
//! `def`, `class`, `del`, `:=`, `match` captures) and every parameter, less the names it
//! declares `global` or `nonlocal`. Reading such a name before it is bound raises
//! `UnboundLocalError` instead of finding a global of the same name.

use std::collections::HashSet;

use crate::py::function::NameSet;

use ruff_python_ast::visitor::{walk_except_handler, walk_expr, walk_pattern, walk_stmt, Visitor};
use ruff_python_ast::{self as ast, Expr, ExprContext, Pattern, Stmt};

#[derive(Default)]
struct Binder {
    bound: HashSet<String>,
    declared: HashSet<String>,
}

impl<'a> Visitor<'a> for Binder {
    fn visit_stmt(&mut self, s: &'a Stmt) {
        match s {
            // A nested function or class binds its name here; its body is its own scope.
            Stmt::FunctionDef(f) => {
                self.bound.insert(f.name.id.to_string());
            }
            Stmt::ClassDef(c) => {
                self.bound.insert(c.name.id.to_string());
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    let name = match &a.asname {
                        Some(n) => n.id.as_str(),
                        None => a.name.id.split('.').next().unwrap_or_default(),
                    };
                    self.bound.insert(name.to_string());
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    let name = a.asname.as_ref().unwrap_or(&a.name);
                    if name.id.as_str() != "*" {
                        self.bound.insert(name.id.to_string());
                    }
                }
            }
            Stmt::Global(g) => self
                .declared
                .extend(g.names.iter().map(|n| n.id.to_string())),
            Stmt::Nonlocal(n) => self
                .declared
                .extend(n.names.iter().map(|n| n.id.to_string())),
            _ => walk_stmt(self, s),
        }
    }
    fn visit_expr(&mut self, e: &'a Expr) {
        match e {
            Expr::Name(n) if matches!(n.ctx, ExprContext::Store | ExprContext::Del) => {
                self.bound.insert(n.id.to_string());
            }
            // Its parameters and body are the lambda's own scope.
            Expr::Lambda(_) => {}
            _ => walk_expr(self, e),
        }
    }
    fn visit_comprehension(&mut self, c: &'a ast::Comprehension) {
        // The loop targets are the comprehension's own; a `:=` inside binds here.
        self.visit_expr(&c.iter);
        for cond in &c.ifs {
            self.visit_expr(cond);
        }
    }
    fn visit_except_handler(&mut self, h: &'a ast::ExceptHandler) {
        let ast::ExceptHandler::ExceptHandler(handler) = h;
        if let Some(n) = &handler.name {
            self.bound.insert(n.id.to_string());
        }
        walk_except_handler(self, h);
    }
    fn visit_pattern(&mut self, p: &'a Pattern) {
        let captured = match p {
            Pattern::MatchAs(m) => m.name.as_ref(),
            Pattern::MatchStar(m) => m.name.as_ref(),
            Pattern::MatchMapping(m) => m.rest.as_ref(),
            _ => None,
        };
        if let Some(n) = captured {
            self.bound.insert(n.id.to_string());
        }
        walk_pattern(self, p);
    }
}

/// The names local to a function: its parameters and what its body binds, less its
/// `global`/`nonlocal` declarations.
pub fn local_names(def: &ast::StmtFunctionDef) -> NameSet {
    let mut b = Binder::default();
    for s in &def.body {
        b.visit_stmt(s);
    }
    let p = &def.parameters;
    let params = p
        .posonlyargs
        .iter()
        .chain(p.args.iter())
        .chain(p.kwonlyargs.iter())
        .map(|a| &a.parameter)
        .chain(p.vararg.as_deref())
        .chain(p.kwarg.as_deref());
    b.bound.extend(params.map(|a| a.name.id.to_string()));
    b.bound.retain(|n| !b.declared.contains(n));
    b.bound.into_iter().map(std::rc::Rc::from).collect()
}
