//! Fitting the correcting network ([`super::net`]) to self-play positions.
//!
//! Each position keeps its inputs from both views ([`NetInputs`]), the
//! linear evaluation's score and the fit's aim (see [`super::train`]). The
//! network's output is added to the linear score, and its squared error
//! against the aim, through the same sigmoid as the linear fit, is
//! descended by Adam over shuffled batches, with a ridge pull on the hidden
//! layer's inputs. The network starts afresh each fit; the linear weights
//! stay as they are.

use arrayvec::ArrayVec;
use cozy_chess::{Board, Color, Piece};

use super::net::{Net, QA, QP, input};
use super::net_weights::HIDDEN;
use crate::rng::Rng;

/// A position's inputs: its pieces seen from White's view and from Black's
/// (see [`super::net`]), and the side to move.
#[derive(Clone, Debug)]
pub struct NetInputs {
    views: [ArrayVec<u16, 32>; 2],
    white_to_move: bool,
}

impl NetInputs {
    /// The inputs of `board`.
    pub fn new(board: &Board) -> Self {
        let mut views = [ArrayVec::new(), ArrayVec::new()];
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for sq in board.colored_pieces(color, piece) {
                    for (v, view) in [Color::White, Color::Black].into_iter().enumerate() {
                        // A game's board has at most 32 men; more are left out.
                        let _ = views[v].try_push(input(view, color, piece, sq as usize) as u16);
                    }
                }
            }
        }
        NetInputs {
            views,
            white_to_move: board.side_to_move() == Color::White,
        }
    }

    /// The side to move's view, then the other's.
    fn ours_theirs(&self) -> (&[u16], &[u16]) {
        let [white, black] = &self.views;
        if self.white_to_move {
            (white, black)
        } else {
            (black, white)
        }
    }
}

/// One position to fit: its inputs, the linear score (White's view) and
/// the aim (White's expected result).
#[derive(Clone, Debug)]
pub struct NetSample {
    /// The pieces, from both views.
    pub inputs: NetInputs,
    /// The linear evaluation's score, White's view, in centipawns.
    pub linear: f32,
    /// The fit's aim: White's expected result.
    pub aim: f32,
}

/// The network in floating point, as the fit moves it; the layout of
/// [`Net`], values in its units before quantizing (a weight of 1 turns a
/// hidden unit fully on; square values and outputs in centipawns).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    psqt: Vec<f32>,
    input: Vec<f32>,
    bias: Vec<f32>,
    output: Vec<f32>,
    output_bias: f32,
}

/// The network's settings for a fit.
#[derive(Clone, Copy, Debug)]
pub struct NetFitSettings {
    /// Passes over the positions.
    pub epochs: usize,
    /// Adam's step; a fifth of it for the last 30% of the passes.
    pub rate: f32,
    /// The ridge pull on the hidden layer's input weights.
    pub ridge: f32,
    /// Positions a step.
    pub batch: usize,
    /// The seed of the starting weights and the order of the positions.
    pub seed: u64,
}

impl Default for NetFitSettings {
    fn default() -> Self {
        NetFitSettings {
            epochs: 8,
            rate: 1e-3,
            ridge: 1e-5,
            batch: 2048,
            seed: 1,
        }
    }
}

/// How far a square value's weight moves the output: the fit keeps square
/// values near 1 (a pawn is 100 centipawns).
const PSQT_SCALE: f32 = 100.0;
/// How far an output weight moves the score, for the same reason.
const OUTPUT_SCALE: f32 = 400.0;

/// What a forward pass keeps for the backward one.
struct Pass {
    /// The hidden sums, the side to move's view then the other's.
    sums: [[f32; HIDDEN]; 2],
    /// The output, from the side to move's view, in centipawns.
    out: f32,
}

impl FloatNet {
    /// A network whose hidden weights are drawn from a normal of deviation
    /// 0.05 and whose other weights are 0: it corrects nothing yet.
    pub fn new(rng: &mut Rng) -> Self {
        let mut normal = || {
            // Box–Muller.
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let v = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            ((-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()) as f32 * 0.05
        };
        FloatNet {
            psqt: vec![0.0; 768],
            input: (0..768 * HIDDEN).map(|_| normal()).collect(),
            bias: vec![0.0; HIDDEN],
            output: vec![0.0; 2 * HIDDEN],
            output_bias: 0.0,
        }
    }

    /// The network's weights as one list: square values, hidden inputs,
    /// bias, outputs, the output's bias (Adam's view of them).
    fn params_mut(&mut self) -> [&mut [f32]; 5] {
        [
            &mut self.psqt,
            &mut self.input,
            &mut self.bias,
            &mut self.output,
            std::slice::from_mut(&mut self.output_bias),
        ]
    }

    /// The output for `inputs`, with what the backward pass needs.
    fn forward(&self, inputs: &NetInputs) -> Pass {
        let (ours, theirs) = inputs.ours_theirs();
        let mut sums = [[0.0; HIDDEN]; 2];
        let mut psqt = 0.0;
        for (v, list) in [ours, theirs].into_iter().enumerate() {
            sums[v].copy_from_slice(&self.bias);
            for &i in list {
                let row = &self.input[i as usize * HIDDEN..][..HIDDEN];
                for (s, w) in sums[v].iter_mut().zip(row) {
                    *s += w;
                }
                psqt += if v == 0 { 1.0 } else { -1.0 } * self.psqt[i as usize];
            }
        }
        let mut out = self.output_bias;
        for (v, sums) in sums.iter().enumerate() {
            for (s, w) in sums.iter().zip(&self.output[v * HIDDEN..]) {
                out += w * activate(*s);
            }
        }
        Pass {
            sums,
            out: PSQT_SCALE * psqt + OUTPUT_SCALE * out,
        }
    }

    /// The correction of the position with `inputs`, White's view, in
    /// centipawns.
    pub fn correction(&self, inputs: &NetInputs) -> f32 {
        let out = self.forward(inputs).out;
        if inputs.white_to_move { out } else { -out }
    }

    /// Adds to `grad` the gradient of the output (side to move's view) times
    /// `d`.
    fn backward(&self, inputs: &NetInputs, pass: &Pass, d: f32, grad: &mut FloatNet) {
        let (ours, theirs) = inputs.ours_theirs();
        grad.output_bias += OUTPUT_SCALE * d;
        for (v, list) in [ours, theirs].into_iter().enumerate() {
            let mut d_sums = [0.0; HIDDEN];
            for (h, &s) in pass.sums[v].iter().enumerate() {
                grad.output[v * HIDDEN + h] += OUTPUT_SCALE * d * activate(s);
                d_sums[h] = OUTPUT_SCALE * d * self.output[v * HIDDEN + h] * activate_slope(s);
            }
            for (g, ds) in grad.bias.iter_mut().zip(&d_sums) {
                *g += ds;
            }
            let sign = if v == 0 { 1.0 } else { -1.0 };
            for &i in list {
                grad.psqt[i as usize] += sign * PSQT_SCALE * d;
                let row = &mut grad.input[i as usize * HIDDEN..][..HIDDEN];
                for (g, ds) in row.iter_mut().zip(&d_sums) {
                    *g += ds;
                }
            }
        }
    }

    /// The Rust source of the network quantized, as `chess/net_weights.rs`
    /// holds it, or why it cannot be quantized.
    pub fn source(&self) -> Result<String, String> {
        self.quantized().map(|net| net_source(&net))
    }

    /// The network quantized as the engine runs it, or why it cannot be:
    /// the hidden sums of a board full of men (64, more than any position
    /// a FEN can give) must fit 16 bits.
    pub(crate) fn quantized(&self) -> Result<Box<Net>, String> {
        let q = |w: f32, scale: i32| (w * scale as f32).round();
        let max_input = self.input.iter().fold(0f32, |m, w| m.max(q(*w, QA).abs()));
        let max_bias = self.bias.iter().fold(0f32, |m, w| m.max(q(*w, QA).abs()));
        if max_bias + 64.0 * max_input >= f32::from(i16::MAX) {
            return Err(format!(
                "the network's hidden weights reach {:.3}: 64 men's sums would overflow 16 bits \
                 (fit with a larger --lambda)",
                max_input / QA as f32
            ));
        }
        let max_psqt = self
            .psqt
            .iter()
            .fold(0f32, |m, w| m.max(q(*w * PSQT_SCALE, QP).abs()));
        if max_psqt >= f32::from(i16::MAX) {
            return Err("a square value overflows 16 bits".into());
        }
        let mut net = Box::new(Net {
            psqt: [0; 768],
            input: [[0; HIDDEN]; 768],
            bias: [0; HIDDEN],
            output: [0.0; 2 * HIDDEN],
            output_bias: OUTPUT_SCALE * self.output_bias,
        });
        for i in 0..768 {
            net.psqt[i] = q(self.psqt[i] * PSQT_SCALE, QP) as i16;
            for h in 0..HIDDEN {
                net.input[i][h] = q(self.input[i * HIDDEN + h], QA) as i16;
            }
        }
        for h in 0..HIDDEN {
            net.bias[h] = q(self.bias[h], QA) as i16;
        }
        for (o, w) in net.output.iter_mut().zip(&self.output) {
            *o = OUTPUT_SCALE * w;
        }
        Ok(net)
    }
}

/// A hidden unit's output: its sum clipped to [0, 1] and squared.
#[inline]
fn activate(s: f32) -> f32 {
    let c = s.clamp(0.0, 1.0);
    c * c
}

/// The slope of [`activate`].
#[inline]
fn activate_slope(s: f32) -> f32 {
    if s > 0.0 && s < 1.0 { 2.0 * s } else { 0.0 }
}

/// The predicted result of `eval` centipawns (White's view) at scale `k`,
/// as the linear fit has it.
#[inline]
fn predicted(k: f64, eval: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-(k as f32) * eval / 400.0))
}

/// The mean squared error of the linear score plus `net`'s correction
/// against the samples' aims, at scale `k`.
pub fn net_error(samples: &[NetSample], net: &FloatNet, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = predicted(k, s.linear + net.correction(&s.inputs));
            f64::from((p - s.aim).powi(2))
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// Adam's moments for every weight.
struct Adam {
    first: FloatNet,
    second: FloatNet,
    steps: i32,
}

impl Adam {
    fn step(&mut self, net: &mut FloatNet, grad: &mut FloatNet, rate: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.steps += 1;
        let (c1, c2) = (1.0 - B1.powi(self.steps), 1.0 - B2.powi(self.steps));
        let moments = self
            .first
            .params_mut()
            .into_iter()
            .zip(self.second.params_mut());
        for ((w, g), (m, v)) in net
            .params_mut()
            .into_iter()
            .zip(grad.params_mut())
            .zip(moments)
        {
            for i in 0..w.len() {
                m[i] = B1 * m[i] + (1.0 - B1) * g[i];
                v[i] = B2 * v[i] + (1.0 - B2) * g[i] * g[i];
                w[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
            }
        }
    }
}

/// Fits a fresh network to `samples` at scale `k`, calling `progress`
/// after each batch with the batches done.
pub fn fit_net(
    samples: &[NetSample],
    k: f64,
    settings: &NetFitSettings,
    mut progress: impl FnMut(u64),
) -> FloatNet {
    let mut rng = Rng::new(settings.seed);
    let mut net = FloatNet::new(&mut rng);
    let zero = || {
        let mut z = net.clone();
        for p in z.params_mut() {
            p.fill(0.0);
        }
        z
    };
    let mut adam = Adam {
        first: zero(),
        second: zero(),
        steps: 0,
    };
    let mut grad = zero();
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let ln10_k = (k * std::f64::consts::LN_10 / 400.0) as f32;
    let mut done = 0;
    for epoch in 0..settings.epochs {
        let rate = if epoch * 10 >= settings.epochs * 7 {
            settings.rate / 5.0
        } else {
            settings.rate
        };
        // Fisher–Yates.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for batch in order.chunks(settings.batch.max(1)) {
            for p in grad.params_mut() {
                p.fill(0.0);
            }
            let scale = 2.0 / batch.len() as f32;
            for &i in batch {
                let s = &samples[i];
                let pass = net.forward(&s.inputs);
                let white = if s.inputs.white_to_move {
                    pass.out
                } else {
                    -pass.out
                };
                let p = predicted(k, s.linear + white);
                // d(error)/d(output, side to move's view).
                let mut d = scale * (p - s.aim) * p * (1.0 - p) * ln10_k;
                if !s.inputs.white_to_move {
                    d = -d;
                }
                net.backward(&s.inputs, &pass, d, &mut grad);
            }
            for (g, w) in grad.input.iter_mut().zip(&net.input) {
                *g += 2.0 * settings.ridge * w;
            }
            adam.step(&mut net, &mut grad, rate);
            done += 1;
            progress(done);
        }
    }
    net
}

/// The Rust source of `net`, as `chess/net_weights.rs` holds it.
fn net_source(net: &Net) -> String {
    let join = |v: &[String]| v.join(", ");
    let ints = |v: &[i16]| join(&v.iter().map(i16::to_string).collect::<Vec<_>>());
    let floats = |v: &[f32]| join(&v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>());
    let mut s = String::from(
        "//! The correcting network's weights (`net::Net`), quantized. Written by\n\
         //! `splitpoint train chess --net`.\n\n",
    );
    s += &format!("pub(super) const HIDDEN: usize = {HIDDEN};\n\n#[rustfmt::skip]\n");
    s += "pub(super) static NET: super::net::Net = super::net::Net {\n";
    s += &format!("    psqt: [{}],\n    input: [\n", ints(&net.psqt));
    for row in &net.input {
        s += &format!("        [{}],\n", ints(row));
    }
    s += &format!("    ],\n    bias: [{}],\n", ints(&net.bias));
    s += &format!("    output: [{}],\n", floats(&net.output));
    s += &format!("    output_bias: {:?},\n}};\n", net.output_bias);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::net::Accumulator;

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    /// A network with every weight drawn, so every path carries gradient.
    fn busy_net() -> FloatNet {
        let mut rng = Rng::new(7);
        let mut net = FloatNet::new(&mut rng);
        for p in net.params_mut() {
            for w in p.iter_mut() {
                *w = ((rng.below(2001) as f32) - 1000.0) / 1000.0 * 0.1;
            }
        }
        net.bias.iter_mut().for_each(|b| *b += 0.3);
        net
    }

    #[test]
    fn the_gradient_is_the_outputs_slope() {
        let net = busy_net();
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/2r5 b - - 0 40",
        ] {
            let inputs = NetInputs::new(&board(fen));
            let pass = net.forward(&inputs);
            let mut grad = net.clone();
            grad.params_mut().iter_mut().for_each(|p| p.fill(0.0));
            net.backward(&inputs, &pass, 1.0, &mut grad);
            // Each block's most used weight, nudged both ways.
            let mut checked = 0;
            for block in 0..5 {
                let g = grad.params_mut()[block].to_vec();
                let (i, &gi) = g
                    .iter()
                    .enumerate()
                    .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
                    .unwrap();
                let h = 1e-3;
                let mut up = net.clone();
                up.params_mut()[block][i] += h;
                let mut down = net.clone();
                down.params_mut()[block][i] -= h;
                let slope = (up.forward(&inputs).out - down.forward(&inputs).out) / (2.0 * h);
                assert!(
                    (slope - gi).abs() <= 0.02 * gi.abs().max(1.0),
                    "block {block} weight {i}: {slope} measured, {gi} computed"
                );
                checked += 1;
            }
            assert_eq!(checked, 5);
        }
    }

    #[test]
    fn the_quantized_network_scores_as_the_fitted_one() {
        let net = busy_net();
        let quantized = net.quantized().unwrap();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/2r5 b - - 0 40",
        ] {
            let b = board(fen);
            let float = net.correction(&NetInputs::new(&b));
            let stm = Accumulator::with(&quantized, &b).correction_by(&quantized, b.side_to_move());
            let white = if b.side_to_move() == Color::White {
                stm
            } else {
                -stm
            };
            assert!(
                (white as f32 - float).abs() <= 3.0,
                "{fen}: {white} quantized, {float} fitted"
            );
        }
    }

    #[test]
    fn weights_too_large_for_sixteen_bits_are_refused() {
        let mut net = busy_net();
        net.input[5] = 2.0;
        assert!(net.quantized().is_err());
    }

    #[test]
    fn a_fit_learns_a_correction_the_linear_score_lacks() {
        // The aim: the linear score says 0, the truth is a pawn for
        // whoever has the bishop pair. The fit must find it.
        let fens = [
            (
                "rn1qk1nr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                1.0,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QK1NR w KQkq - 0 1",
                -1.0,
            ),
            (
                "rn1qk1nr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
                1.0,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QK1NR b KQkq - 0 1",
                -1.0,
            ),
        ];
        let k = 1.0;
        let samples: Vec<NetSample> = fens
            .iter()
            .map(|&(fen, pawns)| NetSample {
                inputs: NetInputs::new(&board(fen)),
                linear: 0.0,
                aim: predicted(k, 100.0 * pawns),
            })
            .collect();
        let before = net_error(&samples, &FloatNet::new(&mut Rng::new(1)), k);
        let settings = NetFitSettings {
            epochs: 300,
            batch: 4,
            rate: 3e-3,
            ..NetFitSettings::default()
        };
        let net = fit_net(&samples, k, &settings, |_| {});
        let after = net_error(&samples, &net, k);
        assert!(after < before / 20.0, "{before} before, {after} after");
        assert!(net.correction(&samples[0].inputs) > 60.0);
        assert!(net.correction(&samples[1].inputs) < -60.0);
    }
}
