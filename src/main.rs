//! The `nbcuda` binary: a Jupyter kernel (`kernel -f`), its kernelspec installer
//! (`install`) and a headless notebook runner (`run`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use nbcuda::protocol::install::{install_kernelspec, InstallTarget};
use nbcuda::protocol::notebook::{run_notebook, RunOptions};

#[derive(Parser)]
#[command(
    name = "nbcuda",
    version,
    about = "A Jupyter kernel for learning GPU memory management the Numba CUDA way",
    long_about = "A Jupyter kernel for learning GPU memory management the Numba CUDA way.\n\
                  Cells are Python syntax run by nbcuda's own interpreter; device memory lives \
                  on an embedded CPU device or on a real GPU through CUDA."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the Jupyter protocol (started by Jupyter with a connection file).
    Kernel {
        /// The connection file Jupyter wrote for this kernel.
        #[arg(short = 'f', long = "connection-file", value_name = "CONNECTION_FILE")]
        connection_file: PathBuf,
    },
    /// Install the `nbcuda` kernelspec so Jupyter can start this binary.
    Install(InstallArgs),
    /// Execute a notebook in-process (no Jupyter needed) and write the executed copy.
    Run {
        /// The notebook to execute.
        notebook: PathBuf,
        /// Where to write the executed notebook (default: NAME.executed.ipynb next to it).
        #[arg(short = 'o', long = "output", value_name = "OUT.ipynb")]
        output: Option<PathBuf>,
        /// Keep running after a cell raises (the error is kept in the outputs).
        #[arg(long = "allow-errors")]
        allow_errors: bool,
    },
}

#[derive(Args)]
#[group(multiple = false)]
struct InstallArgs {
    /// Install for the current user (the default).
    #[arg(long)]
    user: bool,
    /// Install into the active Python environment (sys.prefix).
    #[arg(long = "sys-prefix")]
    sys_prefix: bool,
    /// Install under PREFIX/share/jupyter/kernels.
    #[arg(long, value_name = "DIR")]
    prefix: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Kernel { connection_file } => nbcuda::protocol::serve(&connection_file),
        Command::Install(args) => {
            let target = if let Some(p) = args.prefix {
                InstallTarget::Prefix(p)
            } else if args.sys_prefix {
                InstallTarget::SysPrefix
            } else {
                InstallTarget::User
            };
            install_kernelspec(&target).map(|dir| {
                println!("Installed kernelspec nbcuda in {}", dir.display());
            })
        }
        Command::Run {
            notebook,
            output,
            allow_errors,
        } => {
            let opts = RunOptions {
                input: notebook,
                output,
                allow_errors,
            };
            match run_notebook(&opts) {
                Ok(summary) if summary.failed => return ExitCode::from(1),
                Ok(_) => Ok(()),
                Err(e) => Err(e),
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nbcuda: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
