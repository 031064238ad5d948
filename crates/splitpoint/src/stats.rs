//! Search statistics, counted per worker and summed at the end.

use std::ops::AddAssign;

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited: interior, quiescence and leaf-solver positions alike.
    pub nodes: u64,
    /// Of `nodes`, those visited by quiescence search.
    pub qnodes: u64,
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Probes that found an entry.
    pub tt_hits: u64,
    /// Probes whose entry ended the node at once (never in exact mode).
    pub tt_cutoffs: u64,
    /// Nodes that failed high (a move reached beta).
    pub beta_cutoffs: u64,
    /// Of those, the ones where the first move searched did it.
    pub first_move_cutoffs: u64,
    /// Nodes whose moves several threads searched: split points opened
    /// (YBW, root splitting, DTS), workloads published, PV nodes pv-split
    /// handed out, nodes where ABDADA deferred moves other threads held.
    pub splits: u64,
    /// Positions pv-split's master sent to slaves (one per move handed out).
    pub work_sent: u64,
    /// A device's kernel launches: the batches its subtrees went in (none
    /// without a device).
    pub launches: u64,
    /// A device's subtrees, one work-item each: the batch search splits
    /// each of `work_sent`'s pieces on the host into many (none without a
    /// device).
    pub device_subtrees: u64,
    /// Bounds pv-split's master sent to slaves (one message per slave
    /// searching under a split node whose alpha rose).
    pub bounds_sent: u64,
    /// Messages that crossed between processes (a cluster's slaves), both
    /// ways, as the master's transport counted them; none in-process. For
    /// a device's transport (the GPU), its kernel launches.
    pub messages: u64,
    /// Those messages' bytes (a device's: up and down).
    pub message_bytes: u64,
    /// A device's transport: microseconds moving work to it and results
    /// back (host clock).
    pub transfer_micros: u64,
    /// A device's transport: microseconds its kernels ran (device clock).
    pub device_micros: u64,
    /// Nodes that met the split conditions but found no idle thread or no free split point.
    pub splits_refused: u64,
    /// Nodes searched under a split point that a cutoff then made useless
    /// (or, in DTS, a full-window search that others' moves overtook).
    pub aborted_nodes: u64,
    /// Time threads spent waiting for work, in microseconds (summed over threads).
    pub idle_micros: u64,
    /// Time owners of shared nodes spent waiting for the threads still
    /// searching there, not helping them, in microseconds (summed).
    pub wait_micros: u64,
    /// Null-move searches that held beta and so ended their node.
    pub null_cutoffs: u64,
    /// Moves searched at reduced depth (late-move reductions).
    pub reductions: u64,
    /// The deepest ply any node reached, quiescence included (the maximum over
    /// threads, not a sum).
    pub seldepth: u64,
}

impl Stats {
    /// The share of beta cutoffs made by the first move: a measure of move
    /// ordering (good orderings score above 0.9).
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.beta_cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.beta_cutoffs as f64
        }
    }

    /// The share of probes that hit.
    pub fn tt_hit_rate(&self) -> f64 {
        if self.tt_probes == 0 {
            0.0
        } else {
            self.tt_hits as f64 / self.tt_probes as f64
        }
    }
}

/// Every counter in declaration order, named once: [`Stats::to_array`] and
/// [`Stats::from_array`] carry a `Stats` as plain numbers (across processes,
/// say); a field missing here fails to compile in `from_array`.
macro_rules! counters {
    ($($field:ident),* $(,)?) => {
        impl Stats {
            /// How many counters a `Stats` has.
            pub const COUNTERS: usize = [$(stringify!($field)),*].len();

            /// The counters' names, in declaration order (the fields').
            pub const NAMES: [&'static str; Self::COUNTERS] = [$(stringify!($field)),*];

            /// The counters in declaration order.
            pub fn to_array(&self) -> [u64; Self::COUNTERS] {
                [$(self.$field),*]
            }

            /// The `Stats` whose [`to_array`](Stats::to_array) is `counters`.
            pub fn from_array(counters: [u64; Self::COUNTERS]) -> Self {
                let [$($field),*] = counters;
                Stats { $($field),* }
            }
        }
    };
}

counters!(
    nodes,
    qnodes,
    tt_probes,
    tt_hits,
    tt_cutoffs,
    beta_cutoffs,
    first_move_cutoffs,
    splits,
    work_sent,
    launches,
    device_subtrees,
    bounds_sent,
    messages,
    message_bytes,
    transfer_micros,
    device_micros,
    splits_refused,
    aborted_nodes,
    idle_micros,
    wait_micros,
    null_cutoffs,
    reductions,
    seldepth,
);

/// Sums every counter but `seldepth`, which takes the deeper of the two.
impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        let seldepth = self.seldepth.max(o.seldepth);
        let mut sum = self.to_array();
        for (s, x) in sum.iter_mut().zip(o.to_array()) {
            *s += x;
        }
        *self = Stats::from_array(sum);
        self.seldepth = seldepth;
    }
}

#[cfg(test)]
mod tests {
    use super::Stats;

    #[test]
    fn counters_round_trip_in_declaration_order() {
        let counters: [u64; Stats::COUNTERS] = std::array::from_fn(|i| 10 + i as u64);
        let stats = Stats::from_array(counters);
        assert_eq!(stats.nodes, 10);
        assert_eq!(stats.seldepth, 10 + Stats::COUNTERS as u64 - 1);
        assert_eq!(stats.to_array(), counters);
    }

    #[test]
    fn adding_sums_the_counters_and_keeps_the_deeper_seldepth() {
        let mut a = Stats::from_array([3; Stats::COUNTERS]);
        a += Stats::from_array([5; Stats::COUNTERS]);
        assert_eq!(a.nodes, 8);
        assert_eq!(a.reductions, 8);
        assert_eq!(a.seldepth, 5);
    }
}
