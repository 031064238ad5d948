//! `splitpoint gpu-info`: the OpenCL platforms and devices Othello's
//! kernels can run on (the `gpu` feature).

use std::process::ExitCode;

use clap::Args;

#[cfg(not(feature = "gpu"))]
use splitpoint_games::registry::NO_OPENCL;

use crate::error::{Error, Result};

/// List the OpenCL devices Othello's kernels can run on (needs a build with
/// --features gpu)
///
/// One line per device: its index (what --gpu-device takes), platform, name
/// and compute units; the one used (--gpu-device, else the first) is marked. With no OpenCL
/// platform installed, a one-line error naming what to install, status 2.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  cargo build --release --features gpu -p splitpoint-cli
  splitpoint gpu-info                    with PoCL: one device, the CPU
  splitpoint gpu-info --check            also builds the kernels and checks a perft
  splitpoint gpu-info --gpu-device 1     the second device: marked, and checked with --check")]
pub struct GpuInfoArgs {
    /// Also build the kernels on the device used and check a perft against
    /// the CPU's
    #[arg(long)]
    pub check: bool,

    /// The device --algorithm gpu would use (its index in the list)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub gpu_device: usize,
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
    if args.gpu_device >= list.len() {
        return Err(Error::input(format!(
            "--gpu-device: no OpenCL device {} (there are {})",
            args.gpu_device,
            list.len()
        )));
    }
    for d in &list {
        let used = if d.index == args.gpu_device {
            "  (used)"
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
        let mut gpu =
            Gpu::open(Some(args.gpu_device)).map_err(|e| Error::input(format!("gpu-info: {e}")))?;
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

/// The platform and name of OpenCL device `index`, for reports.
#[cfg(feature = "gpu")]
pub fn device_name(index: usize) -> Result<String> {
    let list = splitpoint_games::othello::gpu::devices()
        .map_err(|e| Error::input(format!("the gpu algorithm: {e}")))?;
    list.get(index)
        .map(|d| format!("{} / {}", d.platform, d.name))
        .ok_or_else(|| {
            Error::input(format!(
                "--gpu-device: no OpenCL device {index} (there are {}; see splitpoint gpu-info)",
                list.len()
            ))
        })
}

/// Without the `gpu` feature there is no device.
#[cfg(not(feature = "gpu"))]
pub fn device_name(_: usize) -> Result<String> {
    Err(Error::input(NO_OPENCL))
}

/// Without the `gpu` feature there is no device to list.
#[cfg(not(feature = "gpu"))]
pub fn run(_: &GpuInfoArgs) -> Result<ExitCode> {
    Err(Error::input(format!("gpu-info: {NO_OPENCL}")))
}
