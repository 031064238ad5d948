//! The thread timeline: what each thread did and when — searched an
//! iteration or a shared node's move, waited at its own shared node for
//! helpers, sat idle — and the moments that shaped it (a split, a cutoff at
//! a shared node, a bound sent to other threads). Recorded only when
//! [`Engine::set_trace`](crate::Engine::set_trace) asks; off, recording costs
//! one branch on an `Option`. On, each thread keeps at most
//! [`MAX_EVENTS_PER_THREAD`] events and counts the rest, so memory stays
//! bounded however long the search.

use std::time::{Duration, Instant};

/// The most events one thread keeps in one search.
pub const MAX_EVENTS_PER_THREAD: usize = 1 << 16;

/// What an event records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Span: one iteration of iterative deepening (its label: the depth).
    Iteration,
    /// Span: a move of a node shared by another thread (or by this one, at
    /// its own split point), searched here.
    Search,
    /// Span: a thread waiting at its own shared node for the threads still
    /// searching there (any help it gives meanwhile nests inside).
    Wait,
    /// Span: a thread with no work, looking for some.
    Idle,
    /// Instant: a node's moves were shared with other threads.
    Split,
    /// Instant: a shared node's move reached beta; its other moves are moot.
    Cutoff,
    /// Instant: a bound sent to threads searching under a node (pv-split).
    Bound,
}

impl EventKind {
    /// The event's name in traces.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Iteration => "iteration",
            EventKind::Search => "search",
            EventKind::Wait => "wait",
            EventKind::Idle => "idle",
            EventKind::Split => "split",
            EventKind::Cutoff => "cutoff",
            EventKind::Bound => "bound",
        }
    }

    /// Whether the event has a duration (else it is an instant).
    pub fn is_span(self) -> bool {
        matches!(
            self,
            EventKind::Iteration | EventKind::Search | EventKind::Wait | EventKind::Idle
        )
    }
}

/// One event of one thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The thread (0 leads).
    pub thread: usize,
    /// What happened.
    pub kind: EventKind,
    /// When, from the search's start.
    pub start: Duration,
    /// How long (zero for an instant).
    pub duration: Duration,
    /// The ply of the node concerned (0 for iterations and idle time).
    pub ply: usize,
    /// The move searched, the iteration's depth, or empty.
    pub label: String,
    /// A span of work a cutoff or stop then threw away.
    pub aborted: bool,
}

/// The timeline of one search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The threads the search ran on.
    pub threads: usize,
    /// Every thread's events, by start time.
    pub events: Vec<TraceEvent>,
    /// Events not kept, over [`MAX_EVENTS_PER_THREAD`] on some thread.
    pub dropped: u64,
}

impl Trace {
    /// The total time of each span kind, summed over threads, by kind.
    /// Nested spans count in full (a wait includes the help given inside).
    pub fn time_in(&self, kind: EventKind) -> Duration {
        self.events
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| e.duration)
            .sum()
    }
}

/// One thread's recording.
#[derive(Debug)]
pub(crate) struct Recorder {
    start: Instant,
    thread: usize,
    events: Vec<TraceEvent>,
    dropped: u64,
}

impl Recorder {
    pub(crate) fn new(start: Instant, thread: usize) -> Self {
        Recorder {
            start,
            thread,
            events: Vec::new(),
            dropped: 0,
        }
    }

    /// Records an event that began at `since` and ends now (an instant if
    /// `kind` is no span).
    pub(crate) fn record(
        &mut self,
        kind: EventKind,
        since: Instant,
        ply: usize,
        label: String,
        aborted: bool,
    ) {
        if self.events.len() >= MAX_EVENTS_PER_THREAD {
            self.dropped += 1;
            return;
        }
        let now = Instant::now();
        let since = if kind.is_span() { since } else { now };
        self.events.push(TraceEvent {
            thread: self.thread,
            kind,
            start: since.saturating_duration_since(self.start),
            duration: now.saturating_duration_since(since),
            ply,
            label,
            aborted,
        });
    }

    /// Adds this thread's events to `trace`.
    pub(crate) fn drain_into(&mut self, trace: &mut Trace) {
        trace.events.append(&mut self.events);
        trace.dropped += self.dropped;
        self.dropped = 0;
    }
}
