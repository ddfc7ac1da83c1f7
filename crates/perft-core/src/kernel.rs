//! CPU kernels: the counting code compiled for several levels of x86-64,
//! one of them chosen at run time.
//!
//! One binary built for the x86-64 baseline runs everywhere, and still
//! counts at full speed: the hot code is written once, generic over an
//! instruction set (the crate-private `Isa` trait), and each of its
//! outlined functions is compiled once per kernel with that kernel's target
//! features enabled (`#[target_feature]`), so `count_ones` becomes
//! `popcnt`, slider lookups use `pext`, and the fills use AVX2 where the
//! kernel has them. Which kernel counts is decided once per count, from
//! what the CPU reports.
//!
//! | kernel | x86-64 level | what it adds |
//! |---|---|---|
//! | `baseline` | x86-64 (SSE2) | nothing: the build's own target features |
//! | `v2` | x86-64-v2 | POPCNT, SSE3, SSSE3, SSE4.1, SSE4.2 |
//! | `v3` | x86-64-v3 | v2 and AVX, AVX2, BMI1, BMI2, LZCNT |
//! | `v4` | x86-64-v4 and AVX512-VPOPCNTDQ | v3, and AVX-512VL ternary logic and vector popcounts in the slider fills |
//!
//! Slider attacks are looked up by PEXT on `v3` and `v4`, except on AMD
//! Zen 1 and Zen 2 (and Hygon Dhyana), whose PEXT is microcoded and slow:
//! there, and on `baseline` and `v2`, by magic multiplication. Other
//! architectures have the `baseline` kernel only.
//!
//! ```
//! use perft_core::kernel::{Kernel, Level};
//!
//! let best = Kernel::detect();
//! assert!(Kernel::supported().contains(&best));
//! let portable = Kernel::for_level(Level::Baseline)?;
//! assert_eq!(portable.to_string(), format!("baseline ({})", portable.sliders()));
//! # Ok::<(), perft_core::kernel::KernelError>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::attacks::magic;
#[cfg(target_arch = "x86_64")]
use crate::attacks::pext;
use crate::types::{Bitboard, Square};

/// A level of the instruction set, by the x86-64 microarchitecture levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// What the binary was built for (x86-64 by default), nothing more; the
    /// only level on other architectures.
    Baseline,
    /// x86-64-v2: POPCNT and SSE4.2.
    V2,
    /// x86-64-v3: AVX2, BMI1, BMI2 and LZCNT.
    V3,
    /// x86-64-v4 (AVX-512 F, BW, CD, DQ, VL) and AVX512-VPOPCNTDQ: Intel
    /// from Ice Lake, AMD from Zen 4 (earlier AVX-512 CPUs run `v3`).
    V4,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 4] = [Level::Baseline, Level::V2, Level::V3, Level::V4];

    /// `"baseline"`, `"v2"`, `"v3"` or `"v4"`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Baseline => "baseline",
            Level::V2 => "v2",
            Level::V3 => "v3",
            Level::V4 => "v4",
        }
    }

    /// Whether this CPU can run code of this level.
    pub fn is_supported(self) -> bool {
        match self {
            Level::Baseline => true,
            #[cfg(target_arch = "x86_64")]
            Level::V2 => cpu::has_v2(),
            #[cfg(target_arch = "x86_64")]
            Level::V3 => cpu::has_v3(),
            #[cfg(target_arch = "x86_64")]
            Level::V4 => cpu::has_v4(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The levels this CPU can run, lowest first.
    pub fn supported() -> Vec<Level> {
        Level::ALL.into_iter().filter(|level| level.is_supported()).collect()
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = KernelError;

    /// `baseline`, `v2`, `v3` or `v4` (any case; `x86-64`, `x86-64-v2`, ...
    /// too).
    fn from_str(text: &str) -> Result<Self, KernelError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "baseline" | "x86-64" | "x86_64" | "v1" => Ok(Level::Baseline),
            "v2" | "x86-64-v2" => Ok(Level::V2),
            "v3" | "x86-64-v3" => Ok(Level::V3),
            "v4" | "x86-64-v4" => Ok(Level::V4),
            _ => Err(KernelError::Unknown { name: text.chars().take(40).collect() }),
        }
    }
}

/// How sliding-piece attacks are looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SliderLookup {
    /// `TABLE[pext(occupied, mask)]` (BMI2).
    Pext,
    /// `TABLE[(occupied & mask) * magic >> shift]`, on any CPU.
    Magic,
}

impl SliderLookup {
    /// `"pext"` or `"magic"`.
    pub const fn name(self) -> &'static str {
        match self {
            SliderLookup::Pext => "pext",
            SliderLookup::Magic => "magic",
        }
    }
}

impl fmt::Display for SliderLookup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A compiled version of the counting code: a [`Level`] and a
/// [`SliderLookup`]. A value exists only for a kernel this CPU can run
/// (every constructor checks), so counting with it never meets an
/// instruction the CPU lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    level: Level,
    sliders: SliderLookup,
}

/// Why a kernel cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// The name is not a kernel's.
    #[error(
        "unknown CPU kernel {name:?}: expected baseline, v2, v3 or v4 (this CPU supports {})",
        supported_names()
    )]
    Unknown {
        /// The name given.
        name: String,
    },
    /// This CPU lacks instructions the kernel uses.
    #[error("this CPU cannot run the {level} kernel (it supports {})", supported_names())]
    Unsupported {
        /// The kernel asked for.
        level: Level,
    },
}

fn supported_names() -> String {
    Level::supported().iter().map(|level| level.name()).collect::<Vec<_>>().join(", ")
}

/// The slider lookup of the baseline kernel: PEXT where the build itself
/// targets BMI2 (`-C target-cpu=native` on such a machine), else magic.
const BASELINE_SLIDERS: SliderLookup = if Baseline::PEXT { SliderLookup::Pext } else { SliderLookup::Magic };

impl Kernel {
    /// The fastest kernel this CPU runs: the highest level it supports,
    /// with PEXT sliders where PEXT is fast.
    pub fn detect() -> Kernel {
        let level = Level::supported().into_iter().last().unwrap_or(Level::Baseline);
        Kernel { level, sliders: default_sliders(level) }
    }

    /// The kernel of `level` for this CPU (sliders as [`Kernel::detect`]
    /// would choose them).
    ///
    /// # Errors
    /// [`KernelError::Unsupported`] if this CPU cannot run `level`.
    pub fn for_level(level: Level) -> Result<Kernel, KernelError> {
        if level.is_supported() {
            Ok(Kernel { level, sliders: default_sliders(level) })
        } else {
            Err(KernelError::Unsupported { level })
        }
    }

    /// The kernel of `level` with the other slider lookup than
    /// [`Kernel::for_level`]'s, where the level can use both (`v3` and `v4`
    /// without the `magic` cargo feature): for tests and comparisons.
    pub fn other_sliders(self) -> Option<Kernel> {
        let sliders = match self.sliders {
            SliderLookup::Pext => SliderLookup::Magic,
            SliderLookup::Magic => SliderLookup::Pext,
        };
        let can_pext = matches!(self.level, Level::V3 | Level::V4) && cfg!(not(feature = "magic"));
        can_pext.then_some(Kernel { sliders, ..self })
    }

    /// Every kernel this CPU can run, both slider lookups of a level where
    /// it has two, lowest level first.
    pub fn supported() -> Vec<Kernel> {
        let mut kernels = Vec::new();
        for level in Level::supported() {
            let kernel = Kernel { level, sliders: default_sliders(level) };
            kernels.push(kernel);
            kernels.extend(kernel.other_sliders());
        }
        kernels
    }

    /// The instruction-set level.
    pub fn level(self) -> Level {
        self.level
    }

    /// How sliding-piece attacks are looked up.
    pub fn sliders(self) -> SliderLookup {
        self.sliders
    }

    /// The kernel counts use unless told otherwise: the one given to
    /// [`Kernel::activate`], else [`Kernel::detect`]'s.
    pub fn active() -> Kernel {
        match Kernel::decode(ACTIVE.load(Ordering::Relaxed)) {
            Some(kernel) => kernel,
            None => {
                let kernel = Kernel::detect();
                ACTIVE.store(kernel.encode(), Ordering::Relaxed);
                kernel
            }
        }
    }

    /// Makes this the kernel of every count that does not name one, in the
    /// whole process.
    pub fn activate(self) {
        ACTIVE.store(self.encode(), Ordering::Relaxed);
    }

    fn encode(self) -> u8 {
        1 + 2 * self.level as u8 + self.sliders as u8
    }

    fn decode(code: u8) -> Option<Kernel> {
        let code = code.checked_sub(1)?;
        let level = *Level::ALL.get(usize::from(code / 2))?;
        let sliders = if code % 2 == 0 { SliderLookup::Pext } else { SliderLookup::Magic };
        Some(Kernel { level, sliders })
    }

    /// Runs `job` compiled for this kernel.
    #[inline]
    pub(crate) fn run<J: Job>(self, job: J) -> J::Output {
        // SAFETY (each arm): a `Kernel` is only made for a level this CPU
        // supports (`for_level`, `detect`, `supported`, `other_sliders` of
        // one of those, `activate` of one of those), and PEXT only at v3 and
        // v4, which include BMI2.
        #[cfg(target_arch = "x86_64")]
        match (self.level, self.sliders) {
            (Level::Baseline, _) => Baseline::call(job),
            (Level::V2, _) => unsafe { V2::call(job) },
            (Level::V3, SliderLookup::Pext) => unsafe { V3::<true>::call(job) },
            (Level::V3, SliderLookup::Magic) => unsafe { V3::<false>::call(job) },
            (Level::V4, SliderLookup::Pext) => unsafe { V4::<true>::call(job) },
            (Level::V4, SliderLookup::Magic) => unsafe { V4::<false>::call(job) },
        }
        #[cfg(not(target_arch = "x86_64"))]
        Baseline::call(job)
    }
}

impl fmt::Display for Kernel {
    /// `v3 (pext)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.level, self.sliders)
    }
}

/// [`Kernel::active`], encoded; 0 until chosen.
static ACTIVE: AtomicU8 = AtomicU8::new(0);

fn default_sliders(level: Level) -> SliderLookup {
    match level {
        Level::Baseline => BASELINE_SLIDERS,
        Level::V2 => SliderLookup::Magic,
        Level::V3 | Level::V4 if cfg!(not(feature = "magic")) && !slow_pext() => SliderLookup::Pext,
        Level::V3 | Level::V4 => SliderLookup::Magic,
    }
}

/// Whether PEXT is microcoded on this CPU (AMD Zen 1 and Zen 2: family
/// 0x17; Hygon Dhyana, a Zen 1: family 0x18), taking hundreds of cycles
/// where it takes 3 elsewhere.
fn slow_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        cpu::slow_pext()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod cpu {
    use std::arch::is_x86_feature_detected as has;

    pub(super) fn has_v2() -> bool {
        has!("popcnt") && has!("sse3") && has!("ssse3") && has!("sse4.1") && has!("sse4.2")
    }

    pub(super) fn has_v3() -> bool {
        has_v2() && has!("avx") && has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt")
    }

    pub(super) fn has_v4() -> bool {
        has_v3()
            && has!("avx512f")
            && has!("avx512bw")
            && has!("avx512cd")
            && has!("avx512dq")
            && has!("avx512vl")
            && has!("avx512vpopcntdq")
    }

    pub(super) fn slow_pext() -> bool {
        use std::arch::x86_64::__cpuid;
        // Leaf 0 (the vendor) and leaf 1 (the family) exist on every x86-64.
        let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
        let vendor = [vendor.ebx, vendor.edx, vendor.ecx].map(u32::to_le_bytes).concat();
        super::pext_is_microcoded(&vendor, signature)
    }
}

/// Whether a CPU of `vendor` (CPUID leaf 0) and `signature` (leaf 1, EAX)
/// microcodes PEXT: AMD family 0x17 (Zen 1, Zen+, Zen 2) and Hygon family
/// 0x18 (Dhyana, a Zen 1).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn pext_is_microcoded(vendor: &[u8], signature: u32) -> bool {
    let base_family = (signature >> 8) & 0xf;
    let family = if base_family == 0xf { base_family + ((signature >> 20) & 0xff) } else { base_family };
    matches!((vendor, family), (b"AuthenticAMD", 0x17) | (b"HygonGenuine", 0x18))
}

/// A piece of hot code to compile per kernel: its body, generic over the
/// instruction set, is inlined into [`Isa::call`], which has that
/// instruction set's target features enabled.
pub(crate) trait Job {
    /// What it returns.
    type Output;
    /// The body. Implementations are `#[inline(always)]`, so that they are
    /// compiled inside `K::call`, with its target features.
    fn run<K: Isa>(self) -> Self::Output;
}

/// An instruction set the hot code is compiled for, fixed at compile time:
/// what it may use, and the function that compiles a [`Job`] with its
/// target features.
pub(crate) trait Isa: Copy + Send + Sync + 'static {
    /// Whether sliders are looked up by PEXT (else by magic multiplication).
    const PEXT: bool;
    /// Whether many sliders are filled at once with AVX2 (x86-64 only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    const FILL: bool;
    /// Whether the fills use AVX-512VL's ternary logic and AVX512-VPOPCNTDQ's
    /// vector popcounts (see the x86-64 module `attacks::fill`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    const AVX512: bool = false;

    /// Runs `job` in a function of its own, compiled with this instruction
    /// set's target features.
    ///
    /// # Safety
    /// The CPU must support them: called from [`Kernel::run`], or from a
    /// job already running under this instruction set (see [`outlined`]).
    unsafe fn call<J: Job>(job: J) -> J::Output;

    /// Squares a rook on `sq` attacks when `occupied` holds the blockers.
    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        #[cfg(target_arch = "x86_64")]
        if Self::PEXT {
            // SAFETY: `PEXT` is only set for instruction sets with BMI2.
            return unsafe { pext::rook_attacks(sq, occupied) };
        }
        magic::rook_attacks(sq, occupied)
    }

    /// Squares a bishop on `sq` attacks when `occupied` holds the blockers.
    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        #[cfg(target_arch = "x86_64")]
        if Self::PEXT {
            // SAFETY: as in `rook_attacks`.
            return unsafe { pext::bishop_attacks(sq, occupied) };
        }
        magic::bishop_attacks(sq, occupied)
    }

    /// Squares a queen on `sq` attacks when `occupied` holds the blockers.
    #[inline(always)]
    fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        Self::rook_attacks(sq, occupied) | Self::bishop_attacks(sq, occupied)
    }
}

/// Runs `job` in a function of its own compiled for `K` (the recursion
/// and the functions kept out of line in the hot path).
///
/// Only for code that itself runs under `K`: every `K`-generic function of
/// the hot path is reached from [`Kernel::run`] through [`Isa::call`], so
/// the CPU supports `K` wherever this is called.
#[inline(always)]
pub(crate) fn outlined<K: Isa, J: Job>(job: J) -> J::Output {
    // SAFETY: see above.
    unsafe { K::call(job) }
}

/// The instruction set the binary was built for: no target feature beyond
/// the build's own (the x86-64 baseline by default). Everything outside
/// the counting hot path (the board's own move lists, the public attack
/// functions) runs on it.
#[derive(Clone, Copy)]
pub(crate) struct Baseline;

impl Baseline {
    /// [`Isa::call`], which needs no feature here, as a safe function.
    #[inline(never)]
    fn call<J: Job>(job: J) -> J::Output {
        job.run::<Self>()
    }
}

impl Isa for Baseline {
    const PEXT: bool = cfg!(all(target_arch = "x86_64", target_feature = "bmi2", not(feature = "magic")));
    const FILL: bool = cfg!(all(target_arch = "x86_64", target_feature = "avx2"));

    #[inline(never)]
    unsafe fn call<J: Job>(job: J) -> J::Output {
        job.run::<Self>()
    }
}

/// x86-64-v2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct V2;

#[cfg(target_arch = "x86_64")]
impl Isa for V2 {
    const PEXT: bool = false;
    const FILL: bool = cfg!(target_feature = "avx2");

    #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2")]
    #[inline(never)]
    unsafe fn call<J: Job>(job: J) -> J::Output {
        job.run::<Self>()
    }
}

/// x86-64-v3 (`AVX512` false) and x86-64-v4 with AVX512-VPOPCNTDQ (true),
/// with PEXT sliders if `PEXT`. v4 is the v3 code with two AVX-512VL
/// instructions in the fills, written as assembly: ternary logic and vector
/// popcounts. The compiler is not given the AVX-512 target features: with
/// them it copies positions through 64-byte registers, which costs more
/// than the fills gain (that kernel ran at 0.90 of a native build's speed;
/// see docs/performance.md).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Avx2<const PEXT: bool, const AVX512: bool>;

/// x86-64-v3.
#[cfg(target_arch = "x86_64")]
type V3<const PEXT: bool> = Avx2<PEXT, false>;

/// x86-64-v4.
#[cfg(target_arch = "x86_64")]
type V4<const PEXT: bool> = Avx2<PEXT, true>;

#[cfg(target_arch = "x86_64")]
impl<const PEXT: bool, const AVX512: bool> Isa for Avx2<PEXT, AVX512> {
    const PEXT: bool = PEXT;
    const FILL: bool = true;
    const AVX512: bool = AVX512;

    #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,avx,avx2,bmi1,bmi2,lzcnt")]
    #[inline(never)]
    unsafe fn call<J: Job>(job: J) -> J::Output {
        job.run::<Self>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_errors_name_the_supported_levels() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
            assert_eq!(level.name().to_uppercase().parse::<Level>(), Ok(level));
        }
        let unknown = "avx9000".parse::<Level>().unwrap_err().to_string();
        assert!(unknown.contains("avx9000") && unknown.contains("baseline"), "{unknown}");
        for level in Level::ALL {
            match Kernel::for_level(level) {
                Ok(kernel) => assert_eq!(kernel.level(), level),
                Err(e) => assert!(e.to_string().contains(level.name()) && e.to_string().contains("supports")),
            }
        }
    }

    #[test]
    fn pext_is_microcoded_on_zen_1_and_2_only() {
        let amd: &[u8] = b"AuthenticAMD";
        // EPYC 7601 (Zen 1), Ryzen 3700X (Zen 2): family 0x17.
        assert!(pext_is_microcoded(amd, 0x0080_0f12));
        assert!(pext_is_microcoded(amd, 0x0087_0f10));
        assert!(pext_is_microcoded(b"HygonGenuine", 0x0090_0f01));
        // Zen 3 and Zen 4 (0x19), Zen 5 (0x1a), an old AMD without BMI2
        // (0x15), and Intel, whose family field reads 6.
        assert!(!pext_is_microcoded(amd, 0x00a2_0f10));
        assert!(!pext_is_microcoded(amd, 0x00a6_0f12));
        assert!(!pext_is_microcoded(amd, 0x00b4_0f00));
        assert!(!pext_is_microcoded(amd, 0x0060_0f20));
        assert!(!pext_is_microcoded(b"GenuineIntel", 0x0008_06f8));
    }

    #[test]
    fn every_supported_kernel_encodes_and_is_found() {
        let supported = Kernel::supported();
        assert_eq!(supported[0].level(), Level::Baseline);
        assert!(supported.contains(&Kernel::detect()));
        for kernel in supported {
            assert_eq!(Kernel::decode(kernel.encode()), Some(kernel));
            assert!(kernel.level().is_supported());
            if kernel.sliders() == SliderLookup::Pext {
                assert!(kernel.level() >= Level::V3 || (kernel.level() == Level::Baseline && Baseline::PEXT));
            }
        }
        assert_eq!(Kernel::decode(0), None);
    }
}
