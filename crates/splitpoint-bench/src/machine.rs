//! What machine and build a result came from, and how busy the machine was.

use std::time::{SystemTime, UNIX_EPOCH};

/// The machine, the build and the commit of a bench run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Machine {
    /// Logical cores available to this process.
    pub cores: usize,
    /// The processor's model name, if the OS tells.
    pub cpu_model: String,
    /// The operating system.
    pub os: String,
    /// `release` or `debug`.
    pub build_profile: &'static str,
    /// The git commit the binary was built from.
    pub git_commit: &'static str,
}

impl Machine {
    /// Reads the machine's description.
    pub fn detect() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo
            .lines()
            .find_map(|l| {
                l.strip_prefix("model name")
                    .and_then(|r| r.split_once(':'))
                    .map(|(_, m)| m.trim().to_string())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        let os_release = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
        let os = os_release
            .lines()
            .find_map(|l| {
                l.strip_prefix("PRETTY_NAME=")
                    .map(|v| v.trim_matches('"').to_string())
            })
            .unwrap_or_else(|| std::env::consts::OS.to_string());
        Machine {
            cores: cores(),
            cpu_model,
            os,
            build_profile: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            },
            git_commit: env!("SPLITPOINT_GIT_COMMIT"),
        }
    }
}

/// Logical cores available to this process (at least 1).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 1-minute load average (the first field of `/proc/loadavg`), where the
/// OS gives one: above the cores, some thread waited for a processor, so a
/// time measured then is suspect.
pub fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// `time` in UTC as RFC 3339, to the second (`2026-11-23T22:15:00Z`).
pub fn rfc3339(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Days since 1970-01-01 to a civil date: Howard Hinnant's
    // `civil_from_days`, in eras of 400 years starting on March 1st.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let m = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * m + 2) / 5 + 1;
    let month = if m < 10 { m + 3 } else { m - 9 };
    let year = era * 400 + year_of_era + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        let at = |secs| rfc3339(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(at(4_107_542_399), "2100-02-28T23:59:59Z");
        assert_eq!(at(4_107_542_400), "2100-03-01T00:00:00Z");
    }
}
