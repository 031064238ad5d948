//! How the gpu algorithm splits its pieces of work: a plain setting, known
//! to builds without OpenCL too (the command line reads the names there and
//! says what is missing).

/// How the gpu algorithm splits each piece of work pv-split's master hands
/// the device between the host and the device (the batch search's
/// settings): a narrow split keeps the tree small but sends the device a
/// few subtrees a launch; a wide one fills launches with younger brothers
/// searched before their elder's bound is known, and searches more nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GpuSplit {
    /// `gpu-narrow`: each piece one work-item, the seed's PV splitting on
    /// a GPU (only pieces too deep for the kernel's stack are split).
    Narrow,
    /// `gpu`: two plies of each piece on the host, an expected CUT node's
    /// first three children one after another.
    #[default]
    Balanced,
    /// `gpu-wide`: the host down to four plies from the frontier, every
    /// younger brother at once after its eldest.
    Wide,
}

impl GpuSplit {
    /// Every split, narrowest first.
    pub const ALL: [GpuSplit; 3] = [GpuSplit::Narrow, GpuSplit::Balanced, GpuSplit::Wide];

    /// The algorithm's name with this split.
    pub fn name(self) -> &'static str {
        match self {
            GpuSplit::Narrow => "gpu-narrow",
            GpuSplit::Balanced => "gpu",
            GpuSplit::Wide => "gpu-wide",
        }
    }
}
