//! `splitpoint gpu-info`: the OpenCL platforms and devices Othello's
//! kernels can run on (the `gpu` feature).

use std::process::ExitCode;

use clap::Args;

use crate::error::{Error, Result};

/// List the OpenCL devices Othello's kernels can run on (needs a build with
/// --features gpu)
///
/// One line per device: its index (what --gpu-device takes), platform, name
/// and compute units; the one used by default is marked. With no OpenCL
/// platform installed, a one-line error naming what to install, status 2.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  cargo build --release --features gpu -p splitpoint-cli
  splitpoint gpu-info                    with PoCL: one device, the CPU
  splitpoint gpu-info --check            also builds the kernels and checks a perft")]
pub struct GpuInfoArgs {
    /// Also build the kernels on the default device and check a perft
    /// against the CPU's
    #[arg(long)]
    pub check: bool,
}

/// Runs `splitpoint gpu-info`.
#[cfg(feature = "gpu")]
pub fn run(args: &GpuInfoArgs) -> Result<ExitCode> {
    use std::io::Write;

    use splitpoint_games::othello::Othello;
    use splitpoint_games::othello::gpu::{Gpu, devices};

    use crate::stdout;

    let list = devices().map_err(|e| Error::input(format!("gpu-info: {e}")))?;
    let mut out = stdout();
    for d in &list {
        let used = if d.index == 0 {
            "  (used by default)"
        } else {
            ""
        };
        writeln!(
            out,
            "{}: {} / {} ({} compute units){used}",
            d.index, d.platform, d.name, d.compute_units
        )?;
    }
    if args.check {
        let mut gpu = Gpu::open(None).map_err(|e| Error::input(format!("gpu-info: {e}")))?;
        let on_device = gpu
            .perft(&[Othello::start()], 6)
            .map_err(|e| Error::input(format!("gpu-info: {e}")))?;
        let on_cpu = splitpoint::perft(&Othello::start(), 6);
        writeln!(
            out,
            "perft 6 of the start position: device {}, CPU {on_cpu}: {}",
            on_device[0],
            if on_device[0] == on_cpu {
                "equal"
            } else {
                "DIFFERENT"
            }
        )?;
        if on_device[0] != on_cpu {
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Without the `gpu` feature there is no device to list.
#[cfg(not(feature = "gpu"))]
pub fn run(_: &GpuInfoArgs) -> Result<ExitCode> {
    Err(Error::input(
        "gpu-info: this splitpoint was built without OpenCL; build it with \
         `cargo build --release --features gpu -p splitpoint-cli` (needs an OpenCL \
         platform: a GPU's driver, or PoCL: apt-get install pocl-opencl-icd ocl-icd-opencl-dev)",
    ))
}
