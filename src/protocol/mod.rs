//! The Jupyter wire protocol: sockets, signing, message handling, kernelspec install and
//! headless notebook execution.
