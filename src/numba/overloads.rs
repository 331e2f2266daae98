//! A dispatcher's compiled specialisations as Numba shows them: `overloads` (keyed by the
//! argument types), each with `_type_annotation.typemap` (the type of every named variable),
//! `signatures`, and a device function's `compile_device(args)` result, whose
//! `fndesc.mangled_name` names the entry in the generated code.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::kernel::codegen::entry_name;
use crate::kernel::types::Ty;
use crate::kernel::CompiledKernel;
use crate::numba::numba_types::NumbaType;
use crate::py::error::PyResult;
use crate::py::runtime::Runtime;
use crate::py::value::{Dict, Object, Value};

fn ty_value(t: &Ty) -> Value {
    Value::object(NumbaType { ty: t.clone() })
}

/// The tuple of argument types that keys a specialisation.
pub fn args_key(args: &[Ty]) -> Value {
    Value::tuple(args.iter().map(ty_value).collect())
}

/// `dispatcher.overloads`: argument types → compiled specialisation.
pub fn overloads(entries: &[(Vec<Ty>, Arc<CompiledKernel>)]) -> Value {
    let mut d = Dict::default();
    for (args, k) in entries {
        d.push(
            args_key(args),
            Value::object(Overload {
                args: args.clone(),
                kernel: k.clone(),
            }),
        );
    }
    Value::Dict(Rc::new(RefCell::new(d)))
}

/// `dispatcher.signatures`: the argument-type tuples compiled so far.
pub fn signatures(entries: &[(Vec<Ty>, Arc<CompiledKernel>)]) -> Value {
    Value::list(entries.iter().map(|(args, _)| args_key(args)).collect())
}

/// One compiled specialisation (Numba's `_Kernel` / `CompileResult`).
pub struct Overload {
    pub args: Vec<Ty>,
    pub kernel: Arc<CompiledKernel>,
}

impl Object for Overload {
    fn type_name(&self) -> String {
        "_Kernel".into()
    }
    fn module_name(&self) -> String {
        "numba.cuda.dispatcher".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        let args: Vec<String> = self.args.iter().map(|t| t.to_string()).collect();
        Ok(format!(
            "<compiled {}({})>",
            self.kernel.name,
            args.join(", ")
        ))
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "_type_annotation" | "type_annotation" => {
                let mut d = Dict::default();
                for (n, t) in &self.kernel.typemap {
                    d.push(Value::str(n), ty_value(t));
                }
                Some(Value::object(TypeAnnotation {
                    typemap: Value::Dict(Rc::new(RefCell::new(d))),
                }))
            }
            "argument_types" | "argtypes" => Some(args_key(&self.args)),
            "fndesc" => Some(Value::object(FunctionDescriptor {
                mangled_name: entry_name(&self.kernel),
            })),
            "name" => Some(Value::str(&self.kernel.name)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `_type_annotation`: `typemap` maps variable names to Numba types.
struct TypeAnnotation {
    typemap: Value,
}

impl Object for TypeAnnotation {
    fn type_name(&self) -> String {
        "TypeAnnotation".into()
    }
    fn module_name(&self) -> String {
        "numba.core.annotations.type_annotations".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok((name == "typemap").then(|| self.typemap.clone()))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `fndesc`: the name of the function in the generated code.
struct FunctionDescriptor {
    mangled_name: String,
}

impl Object for FunctionDescriptor {
    fn type_name(&self) -> String {
        "FunctionDescriptor".into()
    }
    fn module_name(&self) -> String {
        "numba.core.funcdesc".into()
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        Ok(match name {
            "mangled_name" | "llvm_func_name" | "qualname" => Some(Value::str(&self.mangled_name)),
            _ => None,
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
