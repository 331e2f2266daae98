pub mod error;
pub mod function;
pub mod ndarray_attrs;
pub mod ndarray_docs;
pub mod ndarray_methods;
pub mod registry;
pub mod runtime;
pub mod value;
