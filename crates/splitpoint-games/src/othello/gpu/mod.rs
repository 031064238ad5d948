//! Othello on an OpenCL device (the `gpu` feature): the rules of `board.rs`
//! in OpenCL C (`gpu.cl`), one work-item per position, for perft and for
//! exact endgame solving, checked against the CPU (`tests/othello_gpu.rs`).
//! OpenCL runs on NVIDIA, AMD and Intel GPUs and, through PoCL, on any CPU,
//! which is how CI tests the kernels.
//!
//! [`Gpu`] is the device side: what runs there (`othello.cl`: perft, and a
//! depth-limited fail-soft alpha-beta scoring as the CPU's evaluators do)
//! and how positions travel there and back. Positions are uploaded once per
//! batch into buffers that grow and are reused across launches.
//! [`GpuTransport`] (`transport.rs`) makes the device the slaves of the
//! library's PV splitting: `--algorithm gpu`.

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

mod batch;
mod transport;

pub use batch::{BatchConfig, BatchStats, Solved, search_batch, search_batch_until, solve_batch};
pub use transport::{GpuTransport, Offload, SLOTS};

const SOURCE: &str = include_str!("othello.cl");

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
    search: Kernel,
    /// Grown to the largest batch so far, then reused.
    buffers: Option<Buffers>,
    /// The host's copies of a batch's positions and parameters, reused.
    staging: (Vec<cl_ulong>, Vec<cl_int>),
    /// See [`Gpu::lanes`].
    lanes: usize,
}

/// The device buffers of a batch.
struct Buffers {
    /// In positions.
    capacity: usize,
    /// Two words a position.
    positions: Buffer<cl_ulong>,
    /// Four ints a position: depth, ply, alpha, beta (search).
    params: Buffer<cl_int>,
    /// Leaves (perft) or nodes (search), one a position.
    counts: Buffer<cl_ulong>,
    scores: Buffer<cl_int>,
    best_moves: Buffer<cl_int>,
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
        let search = Kernel::create(&program, "search").map_err(cl_err("kernel search"))?;
        let width = search.get_work_group_size_multiple(id).unwrap_or(1).max(1);
        let lanes = info.compute_units.max(1) as usize * width;
        Ok(Gpu {
            info,
            context,
            queue,
            perft,
            search,
            buffers: None,
            staging: (Vec::new(), Vec::new()),
            lanes,
        })
    }

    /// The device in use.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Uploads the positions of a batch of `n` (and, for a search, the
    /// parameters staged in `self.staging.1`), first growing the buffers to
    /// hold it (never shrinking them: the next batch reuses them).
    fn upload(
        &mut self,
        positions: impl Iterator<Item = Othello>,
        with_params: bool,
        n: usize,
    ) -> Result<(), GpuError> {
        let n = n.max(1);
        if self.buffers.as_ref().is_none_or(|b| b.capacity < n) {
            let capacity = n.next_power_of_two();
            let context = &self.context;
            self.buffers = Some(Buffers {
                capacity,
                positions: device_buffer(context, CL_MEM_READ_ONLY, 2 * capacity)?,
                params: device_buffer(context, CL_MEM_READ_ONLY, 4 * capacity)?,
                counts: device_buffer(context, CL_MEM_WRITE_ONLY, capacity)?,
                scores: device_buffer(context, CL_MEM_WRITE_ONLY, capacity)?,
                best_moves: device_buffer(context, CL_MEM_WRITE_ONLY, capacity)?,
            });
        }
        let (host, params) = &mut self.staging;
        host.clear();
        host.extend(positions.flat_map(|p| [p.player(), p.opponent()]));
        let buffers = self.buffers.as_mut().expect("allocated above");
        // SAFETY: blocking writes of 2 (positions) and 4 (parameters) words
        // a position, within the capacity.
        unsafe {
            self.queue
                .enqueue_write_buffer(&mut buffers.positions, CL_BLOCKING, 0, host, &[])
                .map_err(cl_err("upload"))?;
            if with_params {
                self.queue
                    .enqueue_write_buffer(&mut buffers.params, CL_BLOCKING, 0, params, &[])
                    .map_err(cl_err("upload"))?;
            }
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
        self.upload(batch.iter().copied(), false, batch.len())?;
        let b = self.buffers.as_ref().expect("uploaded");
        let (positions, counts) = (&b.positions, &b.counts);
        let depth: cl_uint = depth;
        let n = batch.len() as cl_uint;
        // SAFETY: the arguments match the kernel's (positions, depth,
        // leaves, n); work-items past n return at once.
        let event = unsafe {
            ExecuteKernel::new(&self.perft)
                .set_arg(positions)
                .set_arg(&depth)
                .set_arg(counts)
                .set_arg(&n)
                .set_global_work_size(whole_groups(batch.len()))
                .set_local_work_size(WORK_GROUP)
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
    /// A message when a position has more than [`MAX_EMPTIES`] empty squares
    /// (the kernel's stack is sized for the endgame) or the device fails.
    pub fn solve(
        &mut self,
        batch: &[Othello],
    ) -> Result<(Vec<i32>, Vec<u64>, LaunchTimes), GpuError> {
        let subtrees: Vec<Subtree> = batch.iter().map(|&pos| Subtree::solve(pos)).collect();
        let searched = self.search(&subtrees, DeviceEval::Exact)?;
        Ok((searched.scores, searched.nodes, searched.times))
    }

    /// Searches every subtree of `batch` on the device, one work-item
    /// each: fail-soft alpha-beta in the subtree's window to its depth, as
    /// `splitpoint::oracle::negamax` with `eval` defines the value.
    ///
    /// # Errors
    /// A message when a subtree is too deep for the kernel's stack (see
    /// [`Subtree::fits`]) or the device fails.
    pub fn search(&mut self, batch: &[Subtree], eval: DeviceEval) -> Result<Searched, GpuError> {
        let mut out = Searched::default();
        self.search_into(batch, eval, &mut out)?;
        Ok(out)
    }

    /// [`Gpu::search`] into `out`, whose vectors (and the host's staging
    /// copies) are reused from launch to launch: a batch solver's loop
    /// allocates nothing once its largest batch has been seen.
    ///
    /// # Errors
    /// As [`Gpu::search`].
    pub fn search_into(
        &mut self,
        batch: &[Subtree],
        eval: DeviceEval,
        out: &mut Searched,
    ) -> Result<(), GpuError> {
        if let Some(big) = batch.iter().find(|s| !s.fits()) {
            return Err(GpuError(format!(
                "the device searches at most {MAX_FRAMES} plies, or endgames of at most \
                 {MAX_EMPTIES} empty squares: not {} plies with {} empties",
                big.depth,
                big.pos.empty_count()
            )));
        }
        let n = batch.len();
        for v in [&mut out.scores, &mut out.best_moves] {
            v.clear();
            v.resize(n, 0);
        }
        out.nodes.clear();
        out.nodes.resize(n, 0);
        out.times = LaunchTimes::default();
        if batch.is_empty() {
            return Ok(());
        }
        let start = Instant::now();
        let params = &mut self.staging.1;
        params.clear();
        params.extend(
            batch
                .iter()
                .flat_map(|s| [s.depth, s.ply as cl_int, s.alpha, s.beta]),
        );
        self.upload(batch.iter().map(|s| s.pos), true, n)?;
        let mut transfer = start.elapsed();
        let b = self.buffers.as_ref().expect("uploaded");
        let eval = eval as cl_int;
        let count = n as cl_uint;
        // SAFETY: the arguments match the kernel's (positions, params, eval,
        // scores, best_moves, nodes, n); work-items past n return at once.
        let event = unsafe {
            ExecuteKernel::new(&self.search)
                .set_arg(&b.positions)
                .set_arg(&b.params)
                .set_arg(&eval)
                .set_arg(&b.scores)
                .set_arg(&b.best_moves)
                .set_arg(&b.counts)
                .set_arg(&count)
                .set_global_work_size(whole_groups(n))
                .set_local_work_size(WORK_GROUP)
                .enqueue_nd_range(&self.queue)
                .map_err(cl_err("search launch"))?
        };
        event.wait().map_err(cl_err("search"))?;
        let kernel = match (
            event.profiling_command_start(),
            event.profiling_command_end(),
        ) {
            (Ok(s), Ok(e)) => Duration::from_nanos(e.saturating_sub(s)),
            _ => Duration::ZERO,
        };
        let down = Instant::now();
        // SAFETY: blocking reads of `n` elements the kernel wrote.
        unsafe {
            for (buffer, host) in [
                (&b.scores, &mut out.scores),
                (&b.best_moves, &mut out.best_moves),
            ] {
                self.queue
                    .enqueue_read_buffer(buffer, CL_BLOCKING, 0, host, &[])
                    .map_err(cl_err("download"))?;
            }
            self.queue
                .enqueue_read_buffer(&b.counts, CL_BLOCKING, 0, &mut out.nodes, &[])
                .map_err(cl_err("download"))?;
        }
        transfer += down.elapsed();
        out.times = LaunchTimes { transfer, kernel };
        Ok(())
    }

    /// How many work-items the device runs side by side: its compute units
    /// times the search kernel's preferred work-group size multiple (a
    /// warp's or wavefront's width on a GPU). A launch smaller than this
    /// leaves lanes idle; a GPU hides latency only with several times it.
    pub fn lanes(&self) -> usize {
        self.lanes
    }
}

/// Work-items a work-group: set, not left to the implementation, because
/// each work-item's stack of frames is private memory and an
/// implementation free to choose may put thousands in one group (PoCL does,
/// and overflows its thread's stack). 64 is two warps on NVIDIA, a
/// wavefront on AMD.
const WORK_GROUP: usize = 64;

/// `n` work-items rounded up to whole work-groups.
fn whole_groups(n: usize) -> usize {
    n.div_ceil(WORK_GROUP) * WORK_GROUP
}

/// The kernel's stack: the most plies a subtree's search may go down.
pub const MAX_FRAMES: i32 = 64;
/// The most empty squares of a subtree searched to its end on the device
/// (a game lasts at most a move and a pass per empty square).
pub const MAX_EMPTIES: u32 = MAX_FRAMES as u32 / 2;

/// Which evaluator the kernel scores positions with: the same scores as
/// the CPU's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(i32)]
pub enum DeviceEval {
    /// [`OthelloEval`](super::OthelloEval): the heuristic midgame score,
    /// finished games as wins and losses by distance.
    Midgame = 0,
    /// [`OthelloExact`](super::OthelloExact) to the game's end: finished
    /// games by their final score (the default: the solver's). Its midgame
    /// score in discs is the hand-set evaluation's, not the solver's
    /// patterns: a search stopped by a depth scores apart from the CPU's.
    #[default]
    Exact = 1,
}

/// One subtree for the device: a position, how deep to search below it, its
/// distance from the search's root (wins count by distance) and the window.
#[derive(Clone, Copy, Debug)]
pub struct Subtree {
    /// The position, its side to move searching.
    pub pos: Othello,
    /// Plies to search (a pass is one).
    pub depth: i32,
    /// Plies from the search's root to `pos`.
    pub ply: u32,
    /// The window, from `pos`'s side to move's view.
    pub alpha: i32,
    /// See `alpha`.
    pub beta: i32,
}

impl Subtree {
    /// The exact solve of `pos`: to the game's end, in the widest window.
    pub fn solve(pos: Othello) -> Self {
        Subtree {
            pos,
            depth: 2 * pos.empty_count() as i32,
            ply: 0,
            alpha: -65,
            beta: 65,
        }
    }

    /// Whether the kernel's stack holds this search: a frame per ply down
    /// to the depth or the game's end, whichever comes first.
    pub fn fits(&self) -> bool {
        self.depth.min(2 * self.pos.empty_count() as i32) <= MAX_FRAMES
    }

    /// Whether every line of the search reaches the game's end: a game
    /// lasts at most a move and a pass per empty square.
    pub fn to_the_end(&self) -> bool {
        self.depth >= 2 * self.pos.empty_count() as i32
    }
}

/// What the device found, one entry per subtree of the batch.
#[derive(Clone, Debug, Default)]
pub struct Searched {
    /// The fail-soft score, from the subtree's side to move's view.
    pub scores: Vec<i32>,
    /// The move that gave it: a square (0 = a1 … 63 = h8), 64 for a pass,
    /// -1 when the subtree's root is a leaf (the horizon or a finished game).
    pub best_moves: Vec<i32>,
    /// Positions visited.
    pub nodes: Vec<u64>,
    /// Where the launch's time went.
    pub times: LaunchTimes,
}
