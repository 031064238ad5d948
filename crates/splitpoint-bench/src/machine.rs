//! What machine and build a result came from.

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
