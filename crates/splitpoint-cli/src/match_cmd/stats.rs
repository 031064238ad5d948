//! A match's arithmetic: the score, the Elo difference with its 95%
//! interval, the likelihood of superiority, and the sequential probability
//! ratio test that stops a match once it has decided.
//!
//! Games are counted as wins, draws and losses of the first engine (the
//! trinomial model). Elo is the logistic scale: a score fraction `s` is
//! `-400 log10(1/s - 1)` Elo. The SPRT is the generalised one (GSPRT) that
//! fishtest and cutechess-cli use: its log-likelihood ratio between the
//! hypotheses `elo0` and `elo1` is approximated from the sample's mean and
//! variance, and the match stops when it leaves `[ln(β/(1−α)), ln((1−β)/α)]`.

use serde::{Deserialize, Serialize};

/// Wins, draws and losses, from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// The logistic Elo difference of a score fraction (`None` at 0 or 1,
/// where it is infinite).
pub fn elo_of_score(score: f64) -> Option<f64> {
    // `+ 0.0` turns an even score's -0 into 0.
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10() + 0.0)
}

/// The expected score fraction against an opponent `elo` weaker.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26
/// for erf, absolute error below 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Counts one game: 1, ½ or 0 for the first engine.
    pub fn add(&mut self, points_for_first: f64) {
        if points_for_first > 0.75 {
            self.wins += 1;
        } else if points_for_first > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// The first engine's points.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The first engine's score fraction (`None` before any game).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The variance of one game's result around the sample's mean.
    fn variance(&self) -> Option<f64> {
        let n = self.games() as f64;
        let s = self.score()?;
        Some(
            (self.wins as f64 * (1.0 - s).powi(2)
                + self.draws as f64 * (0.5 - s).powi(2)
                + self.losses as f64 * s.powi(2))
                / n,
        )
    }

    /// The Elo difference the score says, with its 95% interval (each
    /// `None` where the score or the bound is 0 or 1).
    pub fn elo(&self) -> EloEstimate {
        let Some(s) = self.score() else {
            return EloEstimate::default();
        };
        let var = self.variance().unwrap_or(0.0);
        let margin = 1.959_964 * (var / self.games() as f64).sqrt();
        EloEstimate {
            elo: elo_of_score(s),
            low: elo_of_score(s - margin),
            high: elo_of_score(s + margin),
            los: self.likelihood_of_superiority(),
        }
    }

    /// The probability that the first engine is the stronger, from wins
    /// and losses (draws say nothing of it).
    pub fn likelihood_of_superiority(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0)
            .then(|| normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt()))
    }

    /// The GSPRT's log-likelihood ratio of `elo1` against `elo0`. A
    /// sample with no spread (all wins, say) takes its variance from the
    /// sample with one draw more, so that a sweep still ends the test;
    /// all draws give 0.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let (Some(s), Some(mut var)) = (self.score(), self.variance()) else {
            return 0.0;
        };
        if var <= 0.0 {
            let one_more_draw = Tally {
                draws: self.draws + 1,
                ..*self
            };
            var = one_more_draw.variance().unwrap_or(0.0);
        }
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        self.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// An Elo difference with its 95% interval and likelihood of superiority.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The estimate.
    pub elo: Option<f64>,
    /// The interval's lower end.
    pub low: Option<f64>,
    /// The interval's upper end.
    pub high: Option<f64>,
    /// The probability that the first engine is stronger.
    pub los: Option<f64>,
}

impl EloEstimate {
    /// `+35.2 ± 20.1` (the half-width of the interval, which is nearly
    /// symmetric), or the estimate and the interval's ends, `-inf` and
    /// `+inf` where they are infinite; `-` before any game.
    pub fn text(&self) -> String {
        let value = |e: Option<f64>, inf: &str| e.map_or(inf.to_string(), |e| format!("{e:+.1}"));
        match (self.elo, self.low, self.high) {
            (Some(e), Some(l), Some(h)) => format!("{e:+.1} ± {:.1}", (h - l) / 2.0),
            (None, None, None) if self.los.is_none() => "-".to_string(),
            (e, l, h) => {
                // No estimate: a clean sweep, one way or the other.
                let sweep = if self.los.is_some_and(|l| l > 0.5) {
                    "+inf"
                } else {
                    "-inf"
                };
                format!(
                    "{} [{}, {}]",
                    value(e, sweep),
                    value(l, "-inf"),
                    value(h, "+inf")
                )
            }
        }
    }
}

/// A sequential probability ratio test's settings: H0 says the first
/// engine is `elo0` stronger, H1 `elo1`; `alpha` and `beta` are the
/// chances of accepting H1 when H0 holds and H0 when H1 holds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// H0's Elo difference.
    pub elo0: f64,
    /// H1's Elo difference.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtState {
    /// Neither bound is reached: play on.
    Continue,
    /// The LLR fell below the lower bound: H0 (`elo0`).
    AcceptH0,
    /// The LLR rose above the upper bound: H1 (`elo1`).
    AcceptH1,
}

impl Sprt {
    /// The LLR's bounds, lower then upper.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test's state after the games of `tally`, and the LLR.
    pub fn state(&self, tally: &Tally) -> (SprtState, f64) {
        let llr = tally.llr(self.elo0, self.elo1);
        let (low, high) = self.bounds();
        let state = if llr >= high {
            SprtState::AcceptH1
        } else if llr <= low {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        };
        (state, llr)
    }
}

/// Reads `ELO0,ELO1` (the SPRT's hypotheses).
pub fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<Sprt, String> {
    let parse = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("'{t}' is not an Elo difference"))
    };
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| format!("'{text}' is not ELO0,ELO1 (say 0,10)"))?;
    let (elo0, elo1) = (parse(a)?, parse(b)?);
    if elo1 <= elo0 {
        return Err(format!("ELO1 ({elo1}) must be above ELO0 ({elo0})"));
    }
    for (name, p) in [("alpha", alpha), ("beta", beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(format!(
                "the SPRT's {name} must lie strictly between 0 and 0.5"
            ));
        }
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo_of_score(0.5), Some(0.0));
        // 3 to 1 is 190.85 Elo; 10 to 1 is 400.
        assert!((elo_of_score(0.75).unwrap() - 190.848).abs() < 1e-3);
        assert!((elo_of_score(10.0 / 11.0).unwrap() - 400.0).abs() < 1e-9);
        assert_eq!(elo_of_score(1.0), None);
        assert_eq!(elo_of_score(0.0), None);
        for elo in [-600.0, -35.5, 0.0, 12.0, 250.0] {
            assert!((elo_of_score(score_of_elo(elo)).unwrap() - elo).abs() < 1e-9);
        }
    }

    #[test]
    fn the_normal_distribution_is_right_to_seven_places() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
    }

    #[test]
    fn the_interval_is_the_trinomial_one() {
        // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance
        // (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16, standard error 0.04.
        let t = tally(60, 20, 20);
        assert_eq!(t.games(), 100);
        assert!((t.score().unwrap() - 0.7).abs() < 1e-12);
        let e = t.elo();
        let margin = 1.959_964 * 0.04;
        assert!((e.elo.unwrap() - elo_of_score(0.7).unwrap()).abs() < 1e-9);
        assert!((e.low.unwrap() - elo_of_score(0.7 - margin).unwrap()).abs() < 1e-9);
        assert!((e.high.unwrap() - elo_of_score(0.7 + margin).unwrap()).abs() < 1e-9);
        assert!(e.low.unwrap() < e.elo.unwrap() && e.elo.unwrap() < e.high.unwrap());
        // More games of the same mix narrow it by the square root.
        let wide = e.high.unwrap() - e.low.unwrap();
        let e4 = tally(240, 80, 80).elo();
        let narrow = e4.high.unwrap() - e4.low.unwrap();
        assert!((wide / narrow - 2.0).abs() < 0.1, "{wide} {narrow}");
        assert!(e.text().starts_with("+147.2 ± "), "{}", e.text());
    }

    #[test]
    fn a_clean_sweep_has_no_finite_estimate() {
        let e = tally(5, 0, 0).elo();
        assert_eq!(e.elo, None);
        assert_eq!(e.high, None);
        assert_eq!(e.text(), "+inf [-inf, +inf]");
        assert_eq!(tally(0, 0, 5).elo().text(), "-inf [-inf, +inf]");
        // A draw among them gives the interval a spread, and an end.
        let e = tally(0, 1, 5).elo();
        assert!(e.elo.unwrap() < -300.0 && e.high.is_some(), "{e:?}");
        assert_eq!(Tally::default().elo().text(), "-");
        assert_eq!(Tally::default().elo(), EloEstimate::default());
    }

    #[test]
    fn likelihood_of_superiority_counts_decisive_games() {
        assert_eq!(tally(0, 10, 0).likelihood_of_superiority(), None);
        assert!((tally(5, 3, 5).likelihood_of_superiority().unwrap() - 0.5).abs() < 1e-7);
        // 30 wins to 20 losses: Φ(10/√50) = Φ(1.414) = 0.9214.
        let los = tally(30, 0, 20).likelihood_of_superiority().unwrap();
        assert!((los - 0.921_35).abs() < 1e-4, "{los}");
    }

    #[test]
    fn the_llr_matches_the_gsprt_formula() {
        let t = tally(60, 20, 20);
        let (s0, s1) = (score_of_elo(0.0), score_of_elo(10.0));
        let expected = 100.0 * (s1 - s0) * (2.0 * 0.7 - s0 - s1) / (2.0 * 0.16);
        assert!((t.llr(0.0, 10.0) - expected).abs() < 1e-9);
        // An even match speaks for the hypothesis nearer 0.
        assert!(tally(40, 20, 40).llr(0.0, 10.0) < 0.0);
        assert!(tally(40, 20, 40).llr(-10.0, 0.0) > 0.0);
        // A sweep decides a wide test; all draws decide nothing.
        assert!(tally(40, 0, 0).llr(0.0, 200.0) > 2.95);
        assert!(tally(3, 0, 0).llr(0.0, 10.0) < 2.95);
        assert_eq!(tally(0, 30, 0).llr(0.0, 10.0), 0.0);
    }

    #[test]
    fn the_sprt_stops_each_way() {
        let sprt = parse_sprt("0,10", 0.05, 0.05).unwrap();
        let (low, high) = sprt.bounds();
        assert!((low + 2.944_439).abs() < 1e-6 && (high - 2.944_439).abs() < 1e-6);
        assert_eq!(sprt.state(&tally(3, 2, 1)).0, SprtState::Continue);
        assert_eq!(sprt.state(&tally(300, 100, 100)).0, SprtState::AcceptH1);
        assert_eq!(sprt.state(&tally(100, 200, 200)).0, SprtState::AcceptH0);
        // An even match, played long enough, settles on H0 for 0,10.
        assert_eq!(sprt.state(&tally(1000, 1000, 1000)).0, SprtState::Continue);
        assert_eq!(sprt.state(&tally(2000, 2000, 2000)).0, SprtState::AcceptH0);
    }

    #[test]
    fn sprt_settings_are_checked() {
        assert!(parse_sprt("10,0", 0.05, 0.05).is_err());
        assert!(parse_sprt("0", 0.05, 0.05).is_err());
        assert!(parse_sprt("0,x", 0.05, 0.05).is_err());
        assert!(parse_sprt("0,5", 0.0, 0.05).is_err());
        assert!(parse_sprt("-5,5", 0.05, 0.1).is_ok());
    }

    #[test]
    fn tally_adds_points() {
        let mut t = Tally::default();
        for p in [1.0, 0.5, 0.0, 1.0] {
            t.add(p);
        }
        assert_eq!(t, tally(2, 1, 1));
        assert_eq!(t.points(), 2.5);
    }
}
