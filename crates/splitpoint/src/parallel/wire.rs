//! The cluster's messages as bytes: a kind byte, then fixed-width
//! little-endian fields, then length-prefixed byte strings (positions as
//! [`Game::to_bytes`], moves as their text in a position both sides know).

use super::transport::{Order, Report, Work};
use crate::game::{Game, ParseError};
use crate::stats::Stats;

/// Master → slave.
pub const WORK: u8 = 0;
pub const BOUND: u8 = 1;
pub const STOP: u8 = 2;
pub const QUIT: u8 = 3;
/// A search begins: one byte, exact mode or not.
pub const BEGIN: u8 = 4;
/// Rank 0 is done: leave.
pub const SHUTDOWN: u8 = 5;
/// The master's engine was cleared (a new game): clear yours.
pub const CLEAR: u8 = 7;
/// Rank 0's greeting (both ways): who runs which program.
pub const HELLO: u8 = 6;

/// Slave → master.
pub const REPORT: u8 = 10;
/// The slave has left the search (after everything it sent for it).
pub const DONE: u8 = 11;

/// A message being written.
pub struct Writer(pub Vec<u8>);

impl Writer {
    pub fn new(kind: u8) -> Self {
        Writer(vec![kind])
    }
    pub fn u32(&mut self, x: u32) -> &mut Self {
        self.0.extend_from_slice(&x.to_le_bytes());
        self
    }
    pub fn u64(&mut self, x: u64) -> &mut Self {
        self.0.extend_from_slice(&x.to_le_bytes());
        self
    }
    pub fn i32(&mut self, x: i32) -> &mut Self {
        self.0.extend_from_slice(&x.to_le_bytes());
        self
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
        self
    }
}

/// A message being read; every read checks its length.
pub struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    /// The message's kind and a reader of the rest.
    pub fn open(message: &'a [u8]) -> Result<(u8, Self), ParseError> {
        match message.split_first() {
            Some((&kind, rest)) => Ok((kind, Reader(rest))),
            None => Err(ParseError::new("an empty message")),
        }
    }
    fn take<const N: usize>(&mut self) -> Result<[u8; N], ParseError> {
        if self.0.len() < N {
            return Err(ParseError::new("a message ends early"));
        }
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        Ok(head.try_into().expect("N bytes"))
    }
    pub fn u32(&mut self) -> Result<u32, ParseError> {
        self.take().map(u32::from_le_bytes)
    }
    pub fn u64(&mut self) -> Result<u64, ParseError> {
        self.take().map(u64::from_le_bytes)
    }
    pub fn i32(&mut self) -> Result<i32, ParseError> {
        self.take().map(i32::from_le_bytes)
    }
    pub fn bytes(&mut self) -> Result<&'a [u8], ParseError> {
        let n = self.u32()? as usize;
        if self.0.len() < n {
            return Err(ParseError::new("a message ends early"));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    pub fn text(&mut self) -> Result<&'a str, ParseError> {
        std::str::from_utf8(self.bytes()?).map_err(|_| ParseError::new("a move is not UTF-8"))
    }
}

/// A greeting: who runs which program.
pub fn write_hello(hello: &str) -> Vec<u8> {
    Writer::new(HELLO).bytes(hello.as_bytes()).0.clone()
}

/// A greeting's text, if `message` is a greeting.
pub fn read_hello(message: &[u8]) -> Option<&str> {
    match Reader::open(message) {
        Ok((HELLO, mut r)) => r.text().ok(),
        _ => None,
    }
}

/// An order as bytes.
pub fn write_order<G: Game>(order: &Order<G>) -> Vec<u8> {
    match order {
        Order::Work(w) => {
            let mut node = Vec::new();
            w.node.to_bytes(&mut node);
            let mut m = Writer::new(WORK);
            m.u64(w.id)
                .u64(w.frame)
                .i32(w.depth)
                .u32(w.ply as u32)
                .i32(w.alpha)
                .i32(w.beta)
                .bytes(w.node.move_text(w.mv).as_bytes())
                .bytes(&node);
            m.0
        }
        Order::Bound { frame, alpha } => {
            let mut m = Writer::new(BOUND);
            m.u64(*frame).i32(*alpha);
            m.0
        }
        Order::Stop { frame } => {
            let mut m = Writer::new(STOP);
            m.u64(*frame);
            m.0
        }
        Order::Quit => vec![QUIT],
    }
}

/// The order `kind` (one of `WORK`, `BOUND`, `STOP`, `QUIT`) from the rest of
/// its message.
pub fn read_order<G: Game>(kind: u8, r: &mut Reader<'_>) -> Result<Order<G>, ParseError> {
    Ok(match kind {
        WORK => {
            let (id, frame, depth, ply) = (r.u64()?, r.u64()?, r.i32()?, r.u32()? as usize);
            let (alpha, beta) = (r.i32()?, r.i32()?);
            let mv_text = r.text()?;
            let node = G::from_bytes(r.bytes()?)?;
            let mv = node.parse_move(mv_text)?;
            Order::Work(Work {
                id,
                frame,
                mv,
                node,
                depth,
                ply,
                alpha,
                beta,
            })
        }
        BOUND => Order::Bound {
            frame: r.u64()?,
            alpha: r.i32()?,
        },
        STOP => Order::Stop { frame: r.u64()? },
        QUIT => Order::Quit,
        other => return Err(ParseError::new(format!("unexpected order {other}"))),
    })
}

/// A report as bytes; its PV as move texts from `child`, the position the
/// slave searched.
pub fn write_report<G: Game>(report: &Report<G::Move>, child: &G) -> Vec<u8> {
    let mut m = Writer::new(REPORT);
    m.u32(report.slave as u32)
        .u64(report.id)
        .u32(u32::from(report.complete))
        .i32(report.score)
        .i32(report.alpha)
        .u32(report.pv.len() as u32);
    let mut pos = child.clone();
    for &mv in &report.pv {
        m.bytes(pos.move_text(mv).as_bytes());
        pos = pos.play(mv);
    }
    m.0
}

/// A report (after its `REPORT` kind) for work on move `mv` of `node`.
pub fn read_report<G: Game>(
    r: &mut Reader<'_>,
    node: &G,
    mv: G::Move,
) -> Result<Report<G::Move>, ParseError> {
    let (slave, id, complete) = (r.u32()? as usize, r.u64()?, r.u32()? != 0);
    let (score, alpha, len) = (r.i32()?, r.i32()?, r.u32()?);
    let mut pos = node.play(mv);
    let mut pv = Vec::new();
    for _ in 0..len {
        let mv = pos.parse_move(r.text()?)?;
        pos = pos.play(mv);
        pv.push(mv);
    }
    Ok(Report {
        slave,
        id,
        mv,
        complete,
        score,
        alpha,
        pv,
    })
}

/// A report's slave and work id, read ahead of the rest (the master looks
/// the work up by them).
pub fn report_id(message: &[u8]) -> Result<(usize, u64), ParseError> {
    let (_, mut r) = Reader::open(message)?;
    Ok((r.u32()? as usize, r.u64()?))
}

/// A slave's `DONE`, with what it counted in the search.
pub fn write_done(stats: &Stats) -> Vec<u8> {
    let mut m = Writer::new(DONE);
    for x in stats.to_array() {
        m.u64(x);
    }
    m.0
}

/// Reads a `DONE`'s counters (after its kind).
pub fn read_done(r: &mut Reader<'_>) -> Result<Stats, ParseError> {
    let mut counters = [0; Stats::COUNTERS];
    for x in &mut counters {
        *x = r.u64()?;
    }
    Ok(Stats::from_array(counters))
}
