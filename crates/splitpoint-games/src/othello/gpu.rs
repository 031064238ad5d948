//! Othello on an OpenCL device (the `gpu` feature): the rules of `board.rs`
//! in OpenCL C (`gpu.cl`), one work-item per position, for perft and for
//! exact endgame solving, checked against the CPU (`tests/othello_gpu.rs`).
//! OpenCL runs on NVIDIA, AMD and Intel GPUs and, through PoCL, on any CPU,
//! which is how CI tests the kernels.
//!
//! This is the device side of the GPU search: what runs on the device and
//! how positions travel there and back. Positions are uploaded once per
//! batch into buffers that grow and are reused across launches.

use std::ptr;
use std::time::{Duration, Instant};

use opencl3::command_queue::{CL_QUEUE_PROFILING_ENABLE, CommandQueue};
use opencl3::context::Context;
use opencl3::device::{CL_DEVICE_TYPE_ALL, Device};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{CL_BLOCKING, cl_int, cl_uint, cl_ulong};

use super::Othello;

const SOURCE: &str = include_str!("gpu.cl");

/// A device buffer of `len` elements, without host memory.
fn device_buffer<T>(
    context: &Context,
    flags: opencl3::types::cl_mem_flags,
    len: usize,
) -> Result<Buffer<T>, GpuError> {
    // SAFETY: no host pointer is given (null), so OpenCL allocates `len`
    // elements of its own; every read and write below stays within them.
    unsafe { Buffer::create(context, flags, len, ptr::null_mut()) }.map_err(cl_err("device buffer"))
}

/// Why the device cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuError(pub String);

impl std::fmt::Display for GpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GpuError {}

fn cl_err(what: &str) -> impl Fn(opencl3::error_codes::ClError) -> GpuError + '_ {
    move |e| GpuError(format!("{what}: {e}"))
}

/// An OpenCL device, as `gpu-info` lists them.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    /// Its index in [`devices`]: what `--gpu-device` takes.
    pub index: usize,
    /// The platform's name (PoCL, NVIDIA CUDA, AMD APP, Intel …).
    pub platform: String,
    /// The device's name.
    pub name: String,
    /// Compute units.
    pub compute_units: u32,
}

/// Every OpenCL device of every platform, in platform order.
///
/// # Errors
/// A message when no OpenCL platform is installed (the ICD loader finds
/// none).
pub fn devices() -> Result<Vec<DeviceInfo>, GpuError> {
    Ok(device_ids()?
        .into_iter()
        .enumerate()
        .map(|(index, (platform, id))| {
            let device = Device::new(id);
            DeviceInfo {
                index,
                platform,
                name: device.name().unwrap_or_else(|_| "?".to_string()),
                compute_units: device.max_compute_units().unwrap_or(0),
            }
        })
        .collect())
}

/// Platforms are listed one caller at a time: an OpenCL implementation
/// starting up on two threads at once (PoCL, for one) may report no device
/// to one of them.
static LISTING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn device_ids() -> Result<Vec<(String, opencl3::types::cl_device_id)>, GpuError> {
    let _one_at_a_time = LISTING.lock().unwrap_or_else(|e| e.into_inner());
    let platforms = get_platforms().map_err(|e| {
        GpuError(format!(
            "no OpenCL platform ({e}); install one: a GPU's driver, or PoCL on the CPU \
             (apt-get install pocl-opencl-icd ocl-icd-opencl-dev)"
        ))
    })?;
    let mut ids = Vec::new();
    for platform in platforms {
        let name = platform.name().unwrap_or_else(|_| "?".to_string());
        // A platform without devices is skipped, not an error.
        for id in platform.get_devices(CL_DEVICE_TYPE_ALL).unwrap_or_default() {
            ids.push((name.clone(), id));
        }
    }
    if ids.is_empty() {
        return Err(GpuError(
            "no OpenCL device; install a GPU's driver, or PoCL on the CPU \
             (apt-get install pocl-opencl-icd ocl-icd-opencl-dev)"
                .to_string(),
        ));
    }
    Ok(ids)
}

/// Where the time of one launch went: the seed's profile (transfers and the
/// kernel apart).
#[derive(Debug, Clone, Copy, Default)]
pub struct LaunchTimes {
    /// Positions up and results down, host clock.
    pub transfer: Duration,
    /// The kernel, by the device's profiling clock.
    pub kernel: Duration,
}

/// The kernels on one device, with buffers reused across launches.
pub struct Gpu {
    info: DeviceInfo,
    context: Context,
    queue: CommandQueue,
    perft: Kernel,
    solve: Kernel,
    /// Grown to the largest batch so far, then reused.
    buffers: Option<Buffers>,
}

/// The device buffers of a batch.
struct Buffers {
    /// In positions.
    capacity: usize,
    /// Two words a position.
    positions: Buffer<cl_ulong>,
    /// Leaves (perft) or nodes (solve), one a position.
    counts: Buffer<cl_ulong>,
    scores: Buffer<cl_int>,
}

impl Gpu {
    /// The device `index` of [`devices`] (the first when `None`), with the
    /// kernels built.
    ///
    /// # Errors
    /// A message when there is no such device or the kernels do not build.
    pub fn open(index: Option<usize>) -> Result<Gpu, GpuError> {
        let ids = device_ids()?;
        let wanted = index.unwrap_or(0);
        let Some((platform, id)) = ids.get(wanted).cloned() else {
            return Err(GpuError(format!(
                "no OpenCL device {wanted} (there are {}; see splitpoint gpu-info)",
                ids.len()
            )));
        };
        let device = Device::new(id);
        let info = DeviceInfo {
            index: wanted,
            platform,
            name: device.name().unwrap_or_else(|_| "?".to_string()),
            compute_units: device.max_compute_units().unwrap_or(0),
        };
        let context = Context::from_device(&device).map_err(cl_err("OpenCL context"))?;
        #[allow(deprecated)] // OpenCL 1.2's call: what PoCL and most drivers offer
        let queue = CommandQueue::create_default(&context, CL_QUEUE_PROFILING_ENABLE)
            .map_err(cl_err("OpenCL command queue"))?;
        let program = Program::create_and_build_from_source(&context, SOURCE, "")
            .map_err(|log| GpuError(format!("the Othello kernels do not build: {log}")))?;
        let perft = Kernel::create(&program, "perft").map_err(cl_err("kernel perft"))?;
        let solve = Kernel::create(&program, "solve").map_err(cl_err("kernel solve"))?;
        Ok(Gpu {
            info,
            context,
            queue,
            perft,
            solve,
            buffers: None,
        })
    }

    /// The device in use.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Uploads `batch`, first growing the buffers to hold it (never
    /// shrinking them: the next batch reuses them).
    fn upload(&mut self, batch: &[Othello]) -> Result<(), GpuError> {
        let n = batch.len().max(1);
        if self.buffers.as_ref().is_none_or(|b| b.capacity < n) {
            let capacity = n.next_power_of_two();
            let context = &self.context;
            self.buffers = Some(Buffers {
                capacity,
                positions: device_buffer(context, CL_MEM_READ_ONLY, 2 * capacity)?,
                counts: device_buffer(context, CL_MEM_WRITE_ONLY, capacity)?,
                scores: device_buffer(context, CL_MEM_WRITE_ONLY, capacity)?,
            });
        }
        let host: Vec<cl_ulong> = batch
            .iter()
            .flat_map(|p| [p.player(), p.opponent()])
            .collect();
        let buffers = self.buffers.as_mut().expect("allocated above");
        // SAFETY: a blocking write of `host.len()` ≤ 2 × capacity elements.
        unsafe {
            self.queue
                .enqueue_write_buffer(&mut buffers.positions, CL_BLOCKING, 0, &host, &[])
                .map_err(cl_err("upload"))?;
        }
        Ok(())
    }

    /// The leaves `depth` plies below each position (as
    /// [`splitpoint::perft`] counts them), one work-item each.
    ///
    /// # Errors
    /// A message when the device fails.
    pub fn perft(&mut self, batch: &[Othello], depth: u32) -> Result<Vec<u64>, GpuError> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        self.upload(batch)?;
        let b = self.buffers.as_ref().expect("uploaded");
        let (positions, counts) = (&b.positions, &b.counts);
        let depth: cl_uint = depth;
        // SAFETY: the arguments match the kernel's (positions, depth,
        // leaves), and the global size is the batch, within the buffers.
        let event = unsafe {
            ExecuteKernel::new(&self.perft)
                .set_arg(positions)
                .set_arg(&depth)
                .set_arg(counts)
                .set_global_work_size(batch.len())
                .enqueue_nd_range(&self.queue)
                .map_err(cl_err("perft launch"))?
        };
        event.wait().map_err(cl_err("perft"))?;
        let mut out = vec![0 as cl_ulong; batch.len()];
        // SAFETY: a blocking read of `batch.len()` elements it wrote.
        unsafe {
            self.queue
                .enqueue_read_buffer(counts, CL_BLOCKING, 0, &mut out, &[])
                .map_err(cl_err("download"))?;
        }
        Ok(out)
    }

    /// The exact final score of each position for its side to move (the
    /// disc difference, empty squares to the winner: `Othello::final_score`
    /// at the end of perfect play), the nodes each search visited, and
    /// where the time went.
    ///
    /// # Errors
    /// A message when a position has more than 30 empty squares (the
    /// kernel's stack is sized for the endgame) or the device fails.
    pub fn solve(
        &mut self,
        batch: &[Othello],
    ) -> Result<(Vec<i32>, Vec<u64>, LaunchTimes), GpuError> {
        if let Some(big) = batch.iter().find(|p| p.empty_count() > 30) {
            return Err(GpuError(format!(
                "the device solves endgames of at most 30 empty squares, not {}",
                big.empty_count()
            )));
        }
        if batch.is_empty() {
            return Ok((Vec::new(), Vec::new(), LaunchTimes::default()));
        }
        let start = Instant::now();
        self.upload(batch)?;
        let mut transfer = start.elapsed();
        let b = self.buffers.as_ref().expect("uploaded");
        let (positions, counts, scores) = (&b.positions, &b.counts, &b.scores);
        let (alpha, beta): (cl_int, cl_int) = (-65, 65);
        // SAFETY: the arguments match the kernel's (positions, alpha, beta,
        // scores, nodes), and the global size is the batch, within the buffers.
        let event = unsafe {
            ExecuteKernel::new(&self.solve)
                .set_arg(positions)
                .set_arg(&alpha)
                .set_arg(&beta)
                .set_arg(scores)
                .set_arg(counts)
                .set_global_work_size(batch.len())
                .enqueue_nd_range(&self.queue)
                .map_err(cl_err("solve launch"))?
        };
        event.wait().map_err(cl_err("solve"))?;
        let kernel = match (
            event.profiling_command_start(),
            event.profiling_command_end(),
        ) {
            (Ok(s), Ok(e)) => Duration::from_nanos(e.saturating_sub(s)),
            _ => Duration::ZERO,
        };
        let down = Instant::now();
        let mut score_out = vec![0 as cl_int; batch.len()];
        let mut node_out = vec![0 as cl_ulong; batch.len()];
        // SAFETY: blocking reads of `batch.len()` elements the kernel wrote.
        unsafe {
            self.queue
                .enqueue_read_buffer(scores, CL_BLOCKING, 0, &mut score_out, &[])
                .map_err(cl_err("download"))?;
            self.queue
                .enqueue_read_buffer(counts, CL_BLOCKING, 0, &mut node_out, &[])
                .map_err(cl_err("download"))?;
        }
        transfer += down.elapsed();
        Ok((score_out, node_out, LaunchTimes { transfer, kernel }))
    }
}
