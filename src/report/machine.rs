//! Which program wrote a report, on which machine, and when; and the
//! memory a run may still take.

use perft_core::kernel::Kernel;
use serde::{Deserialize, Serialize};

/// Which program produced a report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolInfo {
    /// `"perft"`.
    pub name: String,
    /// The crate version.
    pub version: String,
    /// `git rev-parse --short=12 HEAD` at build time, `-dirty` if the tree had
    /// uncommitted changes, or `unknown`.
    pub git_commit: String,
    /// The compiler that built it.
    pub rustc: String,
    /// `release`, `debug`, ...
    pub build_profile: String,
}

impl ToolInfo {
    /// Facts about this build.
    pub fn current() -> Self {
        ToolInfo {
            name: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: env!("PERFT_GIT_COMMIT").to_string(),
            rustc: env!("PERFT_RUSTC_VERSION").to_string(),
            build_profile: env!("PERFT_BUILD_PROFILE").to_string(),
        }
    }
}

/// The machine a report was measured on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineInfo {
    /// CPU model name, as the operating system reports it.
    pub cpu: String,
    /// Hardware threads available to this process.
    pub cores: usize,
    /// Operating system and architecture, with the kernel release if known.
    pub os: String,
    /// Instruction-set extensions relevant to move generation detected at
    /// run time (`bmi2`, `popcnt`, `avx2`, ...).
    pub cpu_features: Vec<String>,
    /// Target features the binary was compiled to use.
    pub compiled_features: Vec<String>,
    /// The CPU kernel that counted: `baseline`, `v2`, `v3` or `v4` (empty
    /// in reports written before kernels were chosen at run time).
    #[serde(default)]
    pub kernel: String,
    /// How it looked sliding-piece attacks up: `pext` or `magic`.
    #[serde(default)]
    pub slider_backend: String,
}

impl MachineInfo {
    /// Reads the facts of the current machine.
    pub fn detect() -> Self {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|line| line.starts_with("model name") || line.starts_with("Model"))
                    .and_then(|line| line.split_once(':'))
                    .map(|(_, name)| name.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").ok();
        let os = match kernel {
            Some(release) => {
                format!("{} {} ({})", std::env::consts::OS, release.trim(), std::env::consts::ARCH)
            }
            None => format!("{} ({})", std::env::consts::OS, std::env::consts::ARCH),
        };
        let compiled_features = env!("PERFT_TARGET_FEATURES")
            .split(',')
            .filter(|f| ["bmi1", "bmi2", "popcnt", "avx2", "avx512f", "lzcnt", "neon"].contains(f))
            .map(str::to_string)
            .collect();
        let kernel = Kernel::active();
        MachineInfo {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os,
            cpu_features: detect_cpu_features(),
            compiled_features,
            kernel: kernel.level().to_string(),
            slider_backend: kernel.sliders().to_string(),
        }
    }

    /// The kernel as `perft --version` writes it (`v3 (pext)`), or
    /// `unknown` for reports that do not say.
    pub fn kernel_name(&self) -> String {
        if self.kernel.is_empty() {
            "unknown".to_string()
        } else {
            format!("{} ({})", self.kernel, self.slider_backend)
        }
    }

    /// Whether two reports come from comparable machines: same CPU model,
    /// core count and operating system family.
    pub fn comparable(&self, other: &MachineInfo) -> bool {
        self.cpu == other.cpu
            && self.cores == other.cores
            && self.os.split(' ').next() == other.os.split(' ').next()
    }
}

#[cfg(target_arch = "x86_64")]
fn detect_cpu_features() -> Vec<String> {
    let mut features = Vec::new();
    macro_rules! probe {
        ($($name:tt),*) => {$(
            if std::arch::is_x86_feature_detected!($name) {
                features.push($name.to_string());
            }
        )*};
    }
    probe!("popcnt", "sse4.2", "bmi1", "bmi2", "lzcnt", "avx2", "avx512f", "avx512vpopcntdq");
    features
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_cpu_features() -> Vec<String> {
    Vec::new()
}

/// The name of this machine (`/proc/sys/kernel/hostname`, `$HOSTNAME`, or
/// `unknown`).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".into())
}

/// The current UTC time, RFC 3339 with seconds.
pub fn timestamp() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}
