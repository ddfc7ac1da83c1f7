//! How much memory this process may really use, and the hash table size
//! `--hash auto` makes of it.
//!
//! A container's limit (a cgroup's `memory.max`, or `memory.limit_in_bytes`
//! under cgroup v1) is often far below what `/proc/meminfo` shows, and a
//! cluster job's limit is its own: a table sized from the machine's memory
//! gets the process killed there. The budget is the smallest of what the
//! cgroup leaves and what the system has available.

use std::fmt;
use std::path::Path;

use crate::board::Board;
use crate::counting::{estimate_nodes, PerftTable};

/// One mebibyte.
const MB: u64 = 1 << 20;

/// What bounds the memory this process may use, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemorySource {
    /// A cgroup's limit.
    Cgroup {
        /// The limit, in bytes.
        limit: u64,
        /// The bytes of it not in use.
        free: u64,
    },
    /// The system's available memory (`MemAvailable`).
    Available(u64),
    /// The process's address-space limit (`RLIMIT_AS`, as `ulimit -v` and
    /// `prlimit --as` set it): every mapping counts, used or not.
    AddressSpace {
        /// The limit, in bytes.
        limit: u64,
        /// The bytes of it not yet mapped.
        free: u64,
    },
}

impl MemorySource {
    /// The bytes this source leaves for new allocations.
    pub fn free_bytes(self) -> u64 {
        match self {
            MemorySource::Cgroup { free, .. } | MemorySource::AddressSpace { free, .. } => free,
            MemorySource::Available(bytes) => bytes,
        }
    }
}

impl fmt::Display for MemorySource {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            MemorySource::Cgroup { limit, free } => {
                write!(f, "cgroup limit {}, {} free", gigabytes(limit), gigabytes(free))
            }
            MemorySource::Available(bytes) => write!(f, "{} available", gigabytes(bytes)),
            MemorySource::AddressSpace { limit, free } => {
                write!(f, "address-space limit {}, {} unmapped", gigabytes(limit), gigabytes(free))
            }
        }
    }
}

/// `8 GB`, `1.5 GB`, `512 MB`: sizes in binary units as people say them.
pub fn gigabytes(bytes: u64) -> String {
    let gb = bytes as f64 / (1u64 << 30) as f64;
    match gb {
        g if g >= 10.0 => format!("{g:.0} GB"),
        g if g >= 1.0 => format!("{:.1} GB", g).replace(".0 GB", " GB"),
        _ => format!("{} MB", bytes / MB),
    }
}

/// What bounds this process's memory now: the tightest of its cgroup's
/// limit (v2, else v1), the system's available memory and its address-space
/// limit (`RLIMIT_AS`); `None` where none can be read (not Linux).
pub fn memory_source() -> Option<MemorySource> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let own_cgroup = std::fs::read_to_string("/proc/self/cgroup").ok();
    let source = memory_source_in(Path::new("/sys/fs/cgroup"), own_cgroup.as_deref(), meminfo.as_deref());
    let status = std::fs::read_to_string("/proc/self/status").ok();
    tightest(source, address_space(address_space_limit(), status.as_deref()))
}

/// The one of `a` and `b` that leaves less.
fn tightest(a: Option<MemorySource>, b: Option<MemorySource>) -> Option<MemorySource> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.free_bytes() < a.free_bytes() { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// This process's `RLIMIT_AS` in bytes (`None`: unlimited, or not Unix).
fn address_space_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: `getrlimit` writes the one rlimit it is given.
        let read = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
        // `rlim_t` is not 64 bits on every Unix.
        #[allow(clippy::unnecessary_cast)]
        let bytes = limit.rlim_cur as u64;
        (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(bytes)
    }
    #[cfg(not(unix))]
    None
}

/// Address space a worker thread maps: its stack (16 MB, as the counting
/// pool asks).
const THREAD_MAPPING: u64 = 16 * MB;

/// The address-space limit `limit` (bytes) as a source, less what the
/// process has mapped already (`VmSize` of `/proc/self/status`, `status`)
/// and the stacks of a worker thread per core and two more.
pub fn address_space(limit: Option<u64>, status: Option<&str>) -> Option<MemorySource> {
    let limit = limit?;
    let mapped = status
        .and_then(|text| text.lines().find(|l| l.starts_with("VmSize:")))
        .and_then(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |kb| kb.saturating_mul(1024));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let threads = (cores + 2) * THREAD_MAPPING;
    Some(MemorySource::AddressSpace { limit, free: limit.saturating_sub(mapped).saturating_sub(threads) })
}

/// Under an address-space limit (`RLIMIT_AS`), has glibc's allocator keep
/// one arena for every thread instead of mapping 64 MB of address space for
/// each thread that allocates (a count's threads allocate little): under
/// `prlimit --as=512M` those arenas alone would take half the limit.
/// Elsewhere it does nothing. Call it before any thread starts.
pub fn share_allocator_arenas_under_a_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if address_space_limit().is_some() {
        // SAFETY: `mallopt` only changes the allocator's settings, here
        // before any other thread exists.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
    }
}

/// [`memory_source`] with the cgroup file system mounted at `root`, the text
/// of `/proc/self/cgroup` and of `/proc/meminfo` given (for tests).
pub fn memory_source_in(
    root: &Path,
    own_cgroup: Option<&str>,
    meminfo: Option<&str>,
) -> Option<MemorySource> {
    let available = meminfo.and_then(mem_available).map(MemorySource::Available);
    let cgroup = own_cgroup.and_then(|text| cgroup_limit(root, text));
    match (cgroup, available) {
        (Some(c), Some(a)) if a.free_bytes() < c.free_bytes() => Some(a),
        (Some(c), _) => Some(c),
        (None, a) => a,
    }
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The tightest limit on the way from this process's cgroup up to the root:
/// v2 (`0::/path` in `/proc/self/cgroup`: `memory.max`, `memory.current`),
/// else v1 (the `memory` controller's line: `memory.limit_in_bytes`,
/// `memory.usage_in_bytes`). Limits of 2⁶⁰ bytes or more mean none.
fn cgroup_limit(root: &Path, own_cgroup: &str) -> Option<MemorySource> {
    let read = |dir: &Path, name: &str| -> Option<u64> {
        std::fs::read_to_string(dir.join(name)).ok()?.trim().parse().ok()
    };
    let mut tightest: Option<MemorySource> = None;
    for line in own_cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let (base, limit_file, usage_file) = if controllers.is_empty() {
            (root.to_path_buf(), "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (root.join("memory"), "memory.limit_in_bytes", "memory.usage_in_bytes")
        } else {
            continue;
        };
        // Inside a container the cgroup's own directory is often mounted as
        // the root: look at the path given, then at each parent, then at
        // the mount's root.
        let relative = Path::new(path.trim_start_matches('/'));
        for dir in relative.ancestors() {
            let dir = base.join(dir);
            let Some(limit) = read(&dir, limit_file).filter(|&l| l < 1 << 60) else { continue };
            let used = read(&dir, usage_file).unwrap_or(0);
            let source = MemorySource::Cgroup { limit, free: limit.saturating_sub(used) };
            if tightest.is_none_or(|t| source.free_bytes() < t.free_bytes()) {
                tightest = Some(source);
            }
        }
    }
    tightest
}

/// A `--hash` value: a size in MiB (0: no table) or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashSize {
    /// Sized from the count and the memory this process may use.
    Auto,
    /// This many MiB.
    Megabytes(u64),
}

impl std::str::FromStr for HashSize {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if text.eq_ignore_ascii_case("auto") {
            return Ok(HashSize::Auto);
        }
        text.parse().map(HashSize::Megabytes).map_err(|_| {
            format!("`{text}` is neither a size in MB (a whole number, 0 for no table) nor `auto`")
        })
    }
}

/// A table to make: its size, and for `--hash auto` why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSize {
    /// MiB.
    pub megabytes: u64,
    /// For an automatic size, why, for people: `auto: cgroup limit 8 GB,
    /// 7.5 GB free`, `auto: enough for depth 9`.
    pub auto: Option<String>,
}

/// Memory left to the rest of the process beside its tables: a tenth of
/// the budget, at least 256 MiB.
fn headroom(bytes: u64) -> u64 {
    (bytes / 10).max(256 * MB)
}

/// Bytes of table a count of `board` to `depth` can use: a byte per two
/// nodes of perft(`depth` - 2), growing as their power 0.75 beyond
/// 1.2 · 10⁸ of them, at least 1 MiB; 0 where the count is too small
/// for a table to pay (perft(`depth`) estimated under 10⁸ nodes, growth
/// held flat: [`crate::counting::Estimate::nodes_at_flat_growth`]). The
/// table holds subtrees of two plies and more, and transpositions make
/// the positions far fewer than the nodes: perft(9) of the start position
/// stores about 10⁸ counts, nearly all in 8-byte entries (the sizes the
/// start position's counts get, and why: `table_bytes_for`).
pub fn useful_table_bytes(board: &Board, depth: u32) -> u64 {
    if depth < 3 || estimate_nodes(board, depth).nodes_at_flat_growth < PAYS_FROM_NODES {
        return 0;
    }
    table_bytes_for(estimate_nodes(board, depth - 2).nodes_at_flat_growth)
}

/// Below this many nodes a count is over before a table pays for itself.
const PAYS_FROM_NODES: f64 = 1e8;

/// Bytes of table counts of `nodes` nodes in all can use, where their
/// positions are not known (a suite): as [`useful_table_bytes`] with about
/// 20 moves a ply (perft(`depth` - 2) about a 400th of the nodes); 0 under
/// 10⁸ nodes.
pub fn useful_bytes_for_nodes(nodes: f64) -> u64 {
    if nodes < PAYS_FROM_NODES {
        return 0;
    }
    table_bytes_for(nodes / 400.0)
}

/// A byte per two nodes two plies above the leaves up to
/// [`LINEAR_UP_TO`] nodes, and beyond it as the nodes to the power
/// [`GROWTH`], at least 1 MiB. The positions a count stores are the distinct
/// ones, and those grow slower than the nodes (from the start position,
/// about as the 0.7th power at plies 6 to 8: OEIS A083276 against
/// A048987). Fitted to counts of the start position on two threads, from
/// cold memory, where a table sets up at about 0.85 GB/s, to keep the
/// set-up under 5% of the wall time: a larger table hits a few more probes,
/// which save about what its set-up costs. perft(8) gets 55 MiB; perft(9)
/// 585 MiB, 57.6% of probes hit (0.67-0.71 s of set-up, 16.1-16.2 s wall,
/// against 59.9%, 1.0 s and 15.0-16.0 s with 841 MiB); perft(10) 6.1 GiB
/// (7.5 s of set-up, 186.6 s wall, against 13.2 s and 186.3 s with 11 GiB,
/// 9.6 s and 181.8 s with 8 GB).
fn table_bytes_for(nodes_two_plies_up: f64) -> u64 {
    let nodes = if nodes_two_plies_up > LINEAR_UP_TO {
        LINEAR_UP_TO * (nodes_two_plies_up / LINEAR_UP_TO).powf(GROWTH)
    } else {
        nodes_two_plies_up
    };
    ((nodes / 2.0).min(u64::MAX as f64 / 2.0) as u64).max(MB)
}

/// Nodes two plies above the leaves up to which a table of a byte per two
/// of them pays (perft(8) of the start position, with perft(6) at
/// 1.19 · 10⁸, is just below).
const LINEAR_UP_TO: f64 = 1.2e8;

/// How the table grows beyond [`LINEAR_UP_TO`] (see [`table_bytes_for`]).
const GROWTH: f64 = 0.75;

/// What [`fit_to_memory_speed`] cut: the table's MiB before and after, and
/// how many times a random read over each cost one within its first GiB.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemoryCut {
    /// MiB before the cut.
    pub from_megabytes: u64,
    /// Cost of a random read over the table before the cut, in reads within
    /// its first GiB.
    pub from_slowdown: f64,
    /// MiB after it.
    pub to_megabytes: u64,
    /// The same over the table kept.
    pub to_slowdown: f64,
}

/// `cut from 21232 MB: random reads there cost 9.0x those within 1 GB, in
/// 5031 MB 2.1x`.
impl fmt::Display for MemoryCut {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "cut from {} MB: random reads there cost {:.1}x those within 1 GB, in {} MB {:.1}x",
            self.from_megabytes, self.from_slowdown, self.to_megabytes, self.to_slowdown
        )
    }
}

/// Tables from this size on are checked for slow memory.
const CHECKED_FROM_BYTES: u64 = 2 << 30;

/// How much slower than within its first GiB random reads over a table may
/// be before [`fit_to_memory_speed`] cuts it. Where memory behaves as
/// memory, a large table costs a TLB miss more per probe (well under 2x);
/// on one 2-core VM with 24 GB, reads over 4, 8, 16 and 20 GB of a 20 GB
/// block cost 2.4, 5.7, 23-44 and 75-230 times those within 1 GB, perft(9)
/// counted 4%, 32%, 75% and 100% slower with tables of 4, 8, 11 and 16 GB
/// than with 585 MB (hitting more probes), and perft(11) went 7 times as
/// fast with 4 GB as with 21 GB.
const SLOW_MEMORY_RATIO: f64 = 3.0;

/// Random reads per measurement: a few milliseconds where memory is fast.
const READS: usize = 100_000;

/// Cuts a table of 2 GiB or more, before it is used, to
/// the largest size (in steps of a quarter) whose random reads cost at most
/// 3 times those within its first GiB, never below
/// 1 GiB; `None` where it was left whole. Each size is read once to warm it
/// (a first read of memory a VM's host paged out is slower still), then
/// twice, the faster counting.
pub fn fit_to_memory_speed(table: &mut PerftTable) -> Option<MemoryCut> {
    let whole = table.bytes();
    if whole < CHECKED_FROM_BYTES {
        return None;
    }
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let cut = fast_size(whole, |bytes| {
        let mut read = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            table.random_read_nanos(bytes, READS, seed)
        };
        read();
        read().min(read())
    })?;
    table.keep_first(cut.to_megabytes);
    Some(MemoryCut { to_megabytes: table.bytes() / MB, ..cut })
}

/// Fits the table `choice` named to fast memory where `choice` is
/// automatic ([`fit_to_memory_speed`]); `choice` then says so, and the
/// measuring counts as the table's set-up. An explicit size is left alone.
pub fn fit_automatic(choice: &mut TableSize, table: &mut PerftTable) {
    let Some(why) = &choice.auto else { return };
    let started = std::time::Instant::now();
    if let Some(cut) = fit_to_memory_speed(table) {
        *choice = TableSize { megabytes: cut.to_megabytes, auto: Some(format!("{why}; {cut}")) };
    }
    table.add_setup_seconds(started.elapsed().as_secs_f64());
}

/// The cut [`fit_to_memory_speed`] makes to a table of `whole` bytes whose
/// random reads over its first `bytes` cost `nanos(bytes)`; `None` for none.
fn fast_size(whole: u64, mut nanos: impl FnMut(u64) -> f64) -> Option<MemoryCut> {
    let base = nanos(1 << 30).max(1e-3);
    let from_slowdown = nanos(whole) / base;
    let (mut size, mut slowdown) = (whole, from_slowdown);
    while slowdown > SLOW_MEMORY_RATIO && size > 1 << 30 {
        size = (size / 4 * 3).max(1 << 30);
        slowdown = nanos(size) / base;
    }
    (size < whole).then_some(MemoryCut {
        from_megabytes: whole / MB,
        from_slowdown,
        to_megabytes: size / MB,
        to_slowdown: slowdown,
    })
}

/// Resolves `--hash size` for a count that can use `useful()` bytes of table
/// (`what` names it: `depth 9`) and may hold `tables` tables of the size at
/// once (a suite's recount makes a second one a quarter the size: 1.25):
/// `None` for no table (0, or `auto` where none pays). An explicit size
/// larger than `source()` leaves is refused, the message naming both;
/// `source` is asked only where a table is made.
pub fn resolve_table(
    size: HashSize,
    useful: impl FnOnce() -> u64,
    what: &str,
    tables: f64,
    source: impl FnOnce() -> Option<MemorySource>,
) -> Result<Option<TableSize>, String> {
    match size {
        HashSize::Megabytes(0) => Ok(None),
        HashSize::Megabytes(megabytes) => {
            check_fits(megabytes, (megabytes as f64 * tables).ceil() as u64, source())?;
            Ok(Some(TableSize { megabytes, auto: None }))
        }
        HashSize::Auto => match useful() {
            0 => Ok(None),
            useful => Ok(Some(auto_within(useful, what, tables, source()))),
        },
    }
}

/// `--hash auto` for a table that can use `useful` bytes (`what` names the
/// count, as in `enough for depth 9`), within the memory `source` leaves
/// less headroom, shared by `tables` tables of this size.
fn auto_within(useful: u64, what: &str, tables: f64, source: Option<MemorySource>) -> TableSize {
    let useful = useful.max(MB);
    let Some(source) = source else {
        // No way to know: the smaller of what pays and 1 GiB.
        let megabytes = useful.min(1 << 30) / MB;
        return TableSize { megabytes, auto: Some("auto: memory unknown here, at most 1 GB".into()) };
    };
    let free = source.free_bytes();
    let budget = (free.saturating_sub(headroom(free)) as f64 / tables) as u64;
    if useful <= budget {
        TableSize { megabytes: useful.div_ceil(MB), auto: Some(format!("auto: enough for {what}")) }
    } else {
        TableSize { megabytes: (budget / MB).max(1), auto: Some(format!("auto: {source}")) }
    }
}

/// Whether a table of `megabytes` MiB fits in the memory this process may
/// use (as `--hash` checks it): the limit in words when it does not.
///
/// # Errors
/// A message naming the size and the limit.
pub fn table_fits(megabytes: u64) -> Result<(), String> {
    let Some(source) = memory_source() else { return Ok(()) };
    let free_mb = source.free_bytes() / MB;
    if megabytes <= free_mb {
        Ok(())
    } else {
        Err(format!("{megabytes} MB is more than this process may use ({source})"))
    }
}

/// Refuses a table of `needed` MiB in all (the table and any second one a
/// run may make) where `source` leaves less: the message names both.
fn check_fits(megabytes: u64, needed: u64, source: Option<MemorySource>) -> Result<(), String> {
    let Some(source) = source else { return Ok(()) };
    let free_mb = source.free_bytes() / MB;
    if needed <= free_mb {
        return Ok(());
    }
    let what = if needed > megabytes { format!("needs up to {needed} MB here,") } else { "is".to_string() };
    Err(format!("--hash {megabytes} MB {what} more than this process may use ({source}); try --hash auto"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(name), text).unwrap();
    }

    const MEMINFO: &str = "MemTotal: 25000000 kB\nMemFree: 1000 kB\nMemAvailable: 20971520 kB\n";

    #[test]
    fn an_address_space_limit_counts_what_is_mapped() {
        let status = "Name:\tperft\nVmPeak:\t  200000 kB\nVmSize:\t  102400 kB\n";
        let source = address_space(Some(512 << 20), Some(status)).unwrap();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        let free = (412 << 20) - (cores + 2) * THREAD_MAPPING;
        assert_eq!(source, MemorySource::AddressSpace { limit: 512 << 20, free });
        assert!(source.to_string().starts_with("address-space limit 512 MB, "), "{source}");
        assert_eq!(address_space(None, Some(status)), None, "unlimited");
        // Tighter than the available memory: it bounds the table.
        let available = Some(MemorySource::Available(20 << 30));
        assert_eq!(tightest(available, Some(source)), Some(source));
        assert_eq!(tightest(available, address_space(Some(1 << 40), Some(status))), available);
    }

    #[test]
    fn the_tightest_limit_wins() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path();
        // No cgroup limit: the available memory (20 GiB).
        assert_eq!(
            memory_source_in(root, Some("0::/\n"), Some(MEMINFO)),
            Some(MemorySource::Available(20 << 30))
        );
        // A v2 limit of 8 GiB with 1 GiB used, on the process's own group.
        write(&root.join("job"), "memory.max", "8589934592\n");
        write(&root.join("job"), "memory.current", "1073741824\n");
        write(root, "memory.max", "max\n");
        assert_eq!(
            memory_source_in(root, Some("0::/job\n"), Some(MEMINFO)),
            Some(MemorySource::Cgroup { limit: 8 << 30, free: 7 << 30 })
        );
        // A parent's tighter limit counts too.
        write(root, "memory.max", "4294967296\n");
        write(root, "memory.current", "0\n");
        assert_eq!(
            memory_source_in(root, Some("0::/job\n"), Some(MEMINFO)),
            Some(MemorySource::Cgroup { limit: 4 << 30, free: 4 << 30 })
        );
        // v1: the memory controller's line; "unlimited" is a huge number.
        let v1 = tempfile::tempdir().unwrap();
        let v1 = v1.path();
        write(&v1.join("memory/batch"), "memory.limit_in_bytes", "9223372036854771712\n");
        let own = "4:memory:/batch\n1:cpu:/\n";
        assert_eq!(memory_source_in(v1, Some(own), Some(MEMINFO)), Some(MemorySource::Available(20 << 30)));
        write(&v1.join("memory/batch"), "memory.limit_in_bytes", "2147483648\n");
        write(&v1.join("memory/batch"), "memory.usage_in_bytes", "536870912\n");
        let source = memory_source_in(v1, Some(own), Some(MEMINFO)).unwrap();
        assert_eq!(source, MemorySource::Cgroup { limit: 2 << 30, free: 3 << 29 });
        assert_eq!(source.to_string(), "cgroup limit 2 GB, 1.5 GB free");
        // A limit above what the machine has available does not bind.
        write(&v1.join("memory/batch"), "memory.limit_in_bytes", "68719476736\n");
        assert_eq!(memory_source_in(v1, Some(own), Some(MEMINFO)), Some(MemorySource::Available(20 << 30)));
        // Nothing readable: unknown.
        assert_eq!(memory_source_in(v1, None, None), None);
        assert_eq!(memory_source_in(v1, Some("garbage"), Some("nonsense")), None);
    }

    #[test]
    fn auto_sizes_follow_depth_and_memory() {
        let start = Board::startpos();
        let auto = |depth: u32, tables: f64, source: Option<MemorySource>| {
            let useful = || useful_table_bytes(&start, depth);
            resolve_table(HashSize::Auto, useful, &format!("depth {depth}"), tables, || source).unwrap()
        };
        let plenty = Some(MemorySource::Available(64 << 30));
        // Too small to pay.
        assert_eq!(auto(5, 1.0, plenty), None);
        // perft(8): about a byte per two nodes of perft(6) = 119,060,324.
        let d8 = auto(8, 1.0, plenty).unwrap();
        let exact = 119_060_324u64 / 2 / MB;
        assert!(d8.megabytes > exact * 2 / 3 && d8.megabytes < exact * 3 / 2, "{d8:?}");
        assert_eq!(d8.auto.as_deref(), Some("auto: enough for depth 8"));
        // perft(9) and perft(10): the distinct positions grow slower than
        // the nodes, and so does the table: 585 MiB and 6.1 GiB, not a byte per
        // two nodes of perft(7) = 3,195,901,860 and perft(8) =
        // 84,998,978,956 (1.5 GB and 40 GB).
        let d9 = auto(9, 1.0, plenty).unwrap();
        assert!(d9.megabytes > 500 && d9.megabytes < 700, "{d9:?}");
        let d10 = auto(10, 1.0, plenty).unwrap();
        assert!(d10.megabytes > 5 << 10 && d10.megabytes < 7 << 10, "{d10:?}");
        assert!(table_bytes_for(4e10) < table_bytes_for(2e10) * 2);
        assert_eq!(table_bytes_for(1e8), 50_000_000);
        // Deeper than memory allows: the budget less headroom, and why.
        let small = Some(MemorySource::Cgroup { limit: 1 << 30, free: 1 << 30 });
        let d10 = auto(10, 1.0, small).unwrap();
        assert_eq!(d10.megabytes, 1024 - 256);
        assert_eq!(d10.auto.as_deref(), Some("auto: cgroup limit 1 GB, 1 GB free"));
        // A second table shares the budget.
        assert_eq!(auto(10, 1.25, small).unwrap().megabytes, (1024 - 256) * 4 / 5);
        // Unknown memory: at most 1 GiB.
        assert_eq!(auto(10, 1.0, None).unwrap().megabytes, 1024);
        // An explicit size is kept (0: none) and never sized by the count.
        let never = || -> u64 { panic!("an explicit size needs no estimate") };
        let explicit = resolve_table(HashSize::Megabytes(64), never, "", 1.0, || plenty).unwrap();
        assert_eq!(explicit, Some(TableSize { megabytes: 64, auto: None }));
        // No table, no look at the memory.
        let unasked = || -> Option<MemorySource> { panic!("no table needs no memory figure") };
        assert_eq!(resolve_table(HashSize::Megabytes(0), never, "", 1.0, unasked), Ok(None));
        assert_eq!(resolve_table(HashSize::Auto, || 0, "", 1.0, unasked), Ok(None));
    }

    #[test]
    fn tables_reaching_slow_memory_are_cut_to_fast_memory() {
        const GB: u64 = 1 << 30;
        // Reads cost 20 ns up to 5 GB, ten times more beyond, as on a VM
        // whose host pages memory in.
        let paging = |bytes: u64| if bytes <= 5 * GB { 20.0 } else { 200.0 + 2.0 * bytes as f64 / GB as f64 };
        let cut = fast_size(21 * GB, paging).unwrap();
        // 21 GB, then quarters off: 15.75, 11.8, 8.9, 6.6, 5.0 GB.
        assert_eq!(cut.from_megabytes, 21 << 10);
        assert_eq!(cut.to_megabytes, 21 * GB / 4 * 3 / 4 * 3 / 4 * 3 / 4 * 3 / 4 * 3 / MB);
        assert!((cut.from_slowdown - 12.1).abs() < 1e-9 && cut.to_slowdown == 1.0, "{cut:?}");
        assert_eq!(
            cut.to_string(),
            "cut from 21504 MB: random reads there cost 12.1x those within 1 GB, in 5103 MB 1.0x"
        );
        // A TLB miss more per read leaves the table whole.
        assert_eq!(fast_size(21 * GB, |bytes| if bytes <= 4 * GB { 20.0 } else { 35.0 }), None);
        // Memory slow everywhere past the first GiB: cut to 1 GiB, no less.
        assert_eq!(
            fast_size(3 * GB, |bytes| if bytes <= GB { 1.0 } else { 100.0 }).unwrap().to_megabytes,
            1024
        );
    }

    #[test]
    fn sizes_over_the_limit_are_refused_with_both_numbers() {
        let source = Some(MemorySource::Cgroup { limit: 8 << 30, free: 6 << 30 });
        let resolve = |mb: u64, tables: f64, source| {
            resolve_table(HashSize::Megabytes(mb), || 0, "", tables, || source)
        };
        assert!(resolve(4096, 1.0, source).is_ok());
        let error = resolve(16384, 1.0, source).unwrap_err();
        assert!(
            error.contains("16384 MB is more") && error.contains("cgroup limit 8 GB, 6 GB free"),
            "{error}"
        );
        // With the suite's second table: both numbers.
        let error = resolve(5000, 1.25, source).unwrap_err();
        assert!(error.contains("--hash 5000 MB needs up to 6250 MB here, more than"), "{error}");
        assert!(resolve(16384, 1.0, None).is_ok());
        assert_eq!(gigabytes(512 * MB), "512 MB");
        assert_eq!(gigabytes(24 << 30), "24 GB");
    }
}
