pub mod driver;
pub mod launch_args;
pub mod memory;
pub mod nvrtc;
