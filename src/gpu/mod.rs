pub mod driver;
pub mod launch_args;
pub mod nvrtc;
