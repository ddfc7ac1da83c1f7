//! A child process read line by line with deadlines, robust to whatever it
//! prints: lines are cut at a length limit, bytes decoded lossily, the
//! output of one answer is capped, and the last lines are kept for error
//! messages.
//!
//! Each process runs in a process group of its own, and the whole group is
//! killed when the process is stopped, exits or is dropped, so children an
//! engine forks (and keeps in its group) cannot outlive it. The group is
//! killed before the process is reaped: until then its id cannot be reused
//! by another process, so the signal never reaches a stranger. On Linux the
//! engine itself also gets SIGKILL if this program dies without a chance to
//! clean up (a parent-death signal). On Windows each engine runs in a Job
//! object instead: stopping the engine ends every process in the job, and
//! Windows ends them all when this program ends, however it ends. (A
//! process the engine starts in the instant between its own start and its
//! assignment to the job escapes it; where Windows refuses a job, the
//! engine alone is stopped.)

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use super::EngineError;

/// Longest line kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 16 * 1024;
/// What [`Process::tail`] says of a process that printed nothing.
pub(crate) use super::NO_OUTPUT;
/// Lines of output kept for error messages.
const TAIL_LINES: usize = 30;
/// Lines buffered between the reader threads and the caller. When the
/// caller is behind, the readers wait, and the engine waits on its full
/// pipe: memory stays bounded however fast it prints.
const CHANNEL_LINES: usize = 256;
/// Most output accepted for one answer ([`MAX_ANSWER_BYTES`]); each line
/// counts at least `LINE_COST`, so a flood of empty lines is bounded too.
pub(crate) use super::MAX_ANSWER_BYTES;
const LINE_COST: usize = 16;
/// How often a wait looks at the stop flag and at whether the process has
/// exited.
const POLL: Duration = Duration::from_millis(20);
/// How long the output still buffered is read once the process has exited:
/// until both pipes close (at once, normally; later on a loaded machine,
/// where the readers lag), or this long (a child that escaped its group
/// may write forever).
const FINAL_READ: Duration = Duration::from_millis(500);
/// Once the process has exited (and its group was killed), its standard
/// output counts as ended after this long without a line of it, even if a
/// child that escaped the group holds it open. Generous, so lines still in
/// the pipe are read even on a loaded machine.
const QUIET_AFTER_EXIT: Duration = Duration::from_millis(500);
/// How often a reader thread looks whether its process was dropped.
#[cfg(unix)]
const READER_POLL_MS: i32 = 100;

/// Process groups of engines alive now, for [`kill_all`].
static LIVE_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn live_groups() -> std::sync::MutexGuard<'static, Vec<u32>> {
    LIVE_GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills the process group of every engine still running (for a program
/// about to exit at once, as after a second Ctrl-C, when no destructor will
/// run). Engines are then reported as killed by their owners, if any.
pub fn kill_all() {
    for &group in live_groups().iter() {
        kill_group_id(group);
    }
}

fn kill_group_id(group: u32) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(group) {
        // SAFETY: `kill` touches no memory of ours. Callers only pass the
        // group of a child that has not been reaped (it is in
        // `LIVE_GROUPS` until just before `Child::wait`), so the id still
        // names that child's group and no other process.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// Windows: each engine in a Job object that kills every process in it
/// when closed, so the engine's children end with it, and all of them end
/// when this program does (the handle closes even if it is killed).
#[cfg(windows)]
mod job {
    use std::os::windows::io::AsRawHandle;

    use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
        SetInformationJobObject, TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
        JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    };

    /// A Job object holding one engine and the processes it starts.
    pub(super) struct Job(HANDLE);

    // SAFETY: a job handle may be used and closed from any thread.
    unsafe impl Send for Job {}

    impl Job {
        /// A new job holding `child`, or `None` if Windows refuses (the
        /// engine is then stopped alone, by `Child::kill`).
        pub(super) fn holding(child: &std::process::Child) -> Option<Job> {
            // SAFETY: plain Win32 calls on a handle we own and on the
            // child's process handle, which `child` keeps open; `info` is a
            // zeroed plain-data structure of the size we pass.
            unsafe {
                let handle = CreateJobObjectW(std::ptr::null(), std::ptr::null());
                if handle.is_null() {
                    return None;
                }
                let job = Job(handle);
                let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
                info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
                let set = SetInformationJobObject(
                    job.0,
                    JobObjectExtendedLimitInformation,
                    (&info as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
                    std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
                );
                let assigned =
                    set != 0 && AssignProcessToJobObject(job.0, child.as_raw_handle() as HANDLE) != 0;
                assigned.then_some(job)
            }
        }

        /// Ends every process in the job.
        pub(super) fn terminate(&self) {
            // SAFETY: a valid job handle we own.
            unsafe {
                TerminateJobObject(self.0, 1);
            }
        }
    }

    impl Drop for Job {
        fn drop(&mut self) {
            // SAFETY: closed once, here; closing kills what is left in it.
            unsafe {
                CloseHandle(self.0);
            }
        }
    }
}

enum Event {
    Stdout(String),
    Stderr(String),
    /// Bytes of an overlong line dropped (past [`MAX_LINE`]): they count
    /// towards the answer's budget all the same.
    Dropped(usize),
    StdoutClosed,
}

/// What waiting for a line gave.
pub(crate) enum Next {
    /// A line of standard output (without the line ending).
    Line(String),
    /// Standard output closed: the process ended or closed it.
    Closed,
    /// The wait was cut short.
    Cut(Cut),
}

/// Why waiting on a process was cut short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The deadline passed.
    Timeout,
    /// The answer's output passed [`MAX_ANSWER_BYTES`].
    Flood,
    /// The stop flag was raised.
    Stopped,
}

impl Cut {
    /// The error of a call cut short this way after `timeout`, with the
    /// process's last output.
    pub(crate) fn error(self, process: &Process, timeout: Duration) -> EngineError {
        match self {
            Cut::Timeout => EngineError::Timeout { seconds: timeout.as_secs_f64(), output: process.tail() },
            Cut::Flood => EngineError::Flood { output: process.tail() },
            Cut::Stopped => EngineError::Interrupted,
        }
    }
}

pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    tail: VecDeque<String>,
    stdout_closed: bool,
    /// `Child::wait` has run: the id may belong to someone else now.
    reaped: bool,
    /// When the group was killed after the process itself exited (leftover
    /// children holding its output), or the last line of standard output
    /// since then.
    leftovers_killed: Option<Instant>,
    /// When `next_line` next looks whether the process has exited.
    next_exit_check: Instant,
    /// Output bytes (with the per-line minimum) since the answer began.
    answer_bytes: usize,
    /// Standard error's lines are read as answer lines too (engines that
    /// print their perft there).
    merge_stderr: bool,
    stop: Option<&'static AtomicBool>,
    /// Raised when the process is dropped: the reader threads end even if
    /// an escaped child keeps the pipes open.
    readers_done: Arc<AtomicBool>,
    /// The Job object holding the process and what it starts.
    #[cfg(windows)]
    job: Option<job::Job>,
}

/// Waits until `source` has data (or is closed); false once `done` is
/// raised.
#[cfg(unix)]
fn readable(source: &impl std::os::fd::AsRawFd, done: &AtomicBool) -> bool {
    let mut poll = libc::pollfd { fd: source.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    while !done.load(Ordering::Relaxed) {
        // SAFETY: `poll` reads and writes only the one pollfd we pass, and
        // the descriptor stays open while `source` lives. Polling with a
        // timeout (instead of blocking in `read`) lets the thread notice
        // that its process is gone.
        let ready = unsafe { libc::poll(&mut poll, 1, READER_POLL_MS) };
        if ready != 0 {
            return true; // data, end of file, or an error `read` will report
        }
    }
    false
}

#[cfg(not(unix))]
fn readable<T>(_: &T, done: &AtomicBool) -> bool {
    !done.load(Ordering::Relaxed)
}

#[cfg(unix)]
trait Source: Read + std::os::fd::AsRawFd + Send + 'static {}
#[cfg(unix)]
impl<T: Read + std::os::fd::AsRawFd + Send + 'static> Source for T {}
#[cfg(not(unix))]
trait Source: Read + Send + 'static {}
#[cfg(not(unix))]
impl<T: Read + Send + 'static> Source for T {}

fn pump(mut source: impl Source, out: SyncSender<Event>, is_stdout: bool, done: Arc<AtomicBool>) {
    thread::spawn(move || {
        let mut buffer = [0u8; 8192];
        let mut line: Vec<u8> = Vec::new();
        let send = |line: &mut Vec<u8>| {
            let text = String::from_utf8_lossy(line).into_owned();
            line.clear();
            let event = if is_stdout { Event::Stdout(text) } else { Event::Stderr(text) };
            out.send(event).is_ok()
        };
        // Bytes of the current line dropped and not yet said.
        let mut dropped = 0usize;
        // The last byte ended a line with `\r`: a `\n` right after it is
        // the same line end (CR LF), not an empty line.
        let mut after_cr = false;
        loop {
            if !readable(&source, &done) {
                return;
            }
            match source.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    for &byte in &buffer[..n] {
                        // Lines end at LF, CR LF, or a CR alone (old Mac
                        // style, or a line rewritten in place).
                        let crlf = std::mem::replace(&mut after_cr, byte == b'\r') && byte == b'\n';
                        if crlf {
                            continue;
                        }
                        if byte == b'\n' || byte == b'\r' {
                            dropped = 0;
                            if !send(&mut line) {
                                return;
                            }
                        } else if line.len() < MAX_LINE {
                            line.push(byte);
                        } else {
                            dropped += 1;
                        }
                    }
                    // An endless line is counted as it comes, so the
                    // answer's budget ends it (said a line's worth at a time).
                    if dropped >= MAX_LINE && out.send(Event::Dropped(std::mem::take(&mut dropped))).is_err()
                    {
                        return;
                    }
                }
            }
        }
        if !line.is_empty() {
            send(&mut line);
        }
        if is_stdout {
            let _ = out.send(Event::StdoutClosed);
        }
    });
}

impl Process {
    /// Starts `program` with `args` in a process group of its own; stdin is
    /// a pipe when `interactive`, otherwise empty (so a program waiting for
    /// a key press goes on). Waits give up when `stop` is raised.
    pub(crate) fn spawn(
        program: &str,
        args: &[String],
        interactive: bool,
        stop: Option<&'static AtomicBool>,
    ) -> std::io::Result<Process> {
        let mut command = Command::new(program);
        // Its own process group on Unix: a Ctrl-C at the terminal interrupts
        // this program, which then stops the engine itself (instead of the
        // engine dying mid-count and being reported as crashed), and the
        // whole group can be killed at once.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        // The same on Windows: a new process group does not get the
        // console's Ctrl-C.
        #[cfg(windows)]
        std::os::windows::process::CommandExt::creation_flags(
            &mut command,
            windows_sys::Win32::System::Threading::CREATE_NEW_PROCESS_GROUP,
        );
        #[cfg(target_os = "linux")]
        {
            let parent = std::process::id();
            // SAFETY: the closure runs in the child between fork and exec
            // and only makes async-signal-safe system calls (prctl,
            // getppid). It buys a kernel guarantee: if this program dies
            // without cleaning up (SIGKILL), the engine gets SIGKILL too.
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    // Dead already before the request took effect.
                    if libc::getppid() as u32 != parent {
                        libc::_exit(1);
                    }
                    Ok(())
                });
            }
        }
        // Registered under the lock taken before the fork, so a `kill_all`
        // (a second signal) cannot fall between the two.
        let mut live = live_groups();
        let mut child = command
            .args(args)
            .stdin(if interactive { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        live.push(child.id());
        drop(live);
        #[cfg(windows)]
        let job = job::Job::holding(&child);
        let (sender, events) = mpsc::sync_channel(CHANNEL_LINES);
        let readers_done = Arc::new(AtomicBool::new(false));
        pump(child.stdout.take().expect("piped"), sender.clone(), true, readers_done.clone());
        pump(child.stderr.take().expect("piped"), sender, false, readers_done.clone());
        let stdin = child.stdin.take();
        Ok(Process {
            child,
            stdin,
            events,
            tail: VecDeque::new(),
            stdout_closed: false,
            reaped: false,
            leftovers_killed: None,
            next_exit_check: Instant::now(),
            answer_bytes: 0,
            merge_stderr: false,
            stop,
            readers_done,
            #[cfg(windows)]
            job,
        })
    }

    /// Sends one line to the process's standard input.
    pub(crate) fn send(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| std::io::Error::other("stdin is closed"))?;
        writeln!(stdin, "{line}")?;
        stdin.flush()
    }

    /// Whether [`Process::next_line`] also returns standard error's lines
    /// (marked in the tail, not in the line returned).
    pub(crate) fn merge_stderr(&mut self, merge: bool) {
        self.merge_stderr = merge;
    }

    /// Starts counting output towards a new answer's budget.
    pub(crate) fn begin_answer(&mut self) {
        self.answer_bytes = 0;
    }

    fn remember(&mut self, line: &str) {
        if self.tail.len() == TAIL_LINES {
            self.tail.pop_front();
        }
        self.tail.push_back(line.chars().take(300).collect());
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether the process itself has exited, without reaping it (its id
    /// stays reserved until [`Process::reap`]).
    fn exited(&mut self) -> bool {
        if self.reaped {
            return true;
        }
        #[cfg(target_os = "linux")]
        {
            // SAFETY: an all-zero siginfo_t is a valid value for `waitid` to
            // fill in; `waitid` writes only into it. WNOWAIT leaves the
            // child unreaped, which is what keeps its group id ours.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
                libc::waitid(libc::P_PID, self.child.id(), &mut info, flags) == 0 && info.si_pid() != 0
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            // Elsewhere exit is only seen by reaping.
            matches!(self.child.try_wait(), Ok(Some(_))).then(|| self.reap_bookkeeping()).is_some()
        }
    }

    /// Kills the process and everything in its group (unless reaped).
    fn kill_group(&mut self) {
        if self.reaped {
            return;
        }
        kill_group_id(self.child.id());
        #[cfg(windows)]
        if let Some(job) = &self.job {
            job.terminate();
        }
        #[cfg(not(unix))]
        let _ = self.child.kill();
    }

    /// Marks the process reaped and forgets its group.
    fn reap_bookkeeping(&mut self) {
        let id = self.child.id();
        live_groups().retain(|&g| g != id);
        self.reaped = true;
    }

    /// Kills what is left of the group, then reaps the process.
    fn reap(&mut self) -> Option<ExitStatus> {
        self.kill_group();
        let status = self.child.wait().ok();
        self.reap_bookkeeping();
        status
    }

    /// Counts a line against the answer's budget; true when over it.
    fn over_budget(&mut self, line: &str) -> bool {
        self.answer_bytes += line.len().max(LINE_COST);
        self.answer_bytes > MAX_ANSWER_BYTES
    }

    /// The next line of standard output, waiting until `deadline` (checked
    /// whatever the process prints). Once the process itself has exited,
    /// children it left holding its output are killed, so its output ends;
    /// what a child that escaped the group still holds open is treated as
    /// ended a moment later.
    pub(crate) fn next_line(&mut self, deadline: Instant) -> Next {
        if self.stdout_closed {
            return Next::Closed;
        }
        loop {
            if self.stopped() {
                return Next::Cut(Cut::Stopped);
            }
            if self.leftovers_killed.is_some_and(|at| at.elapsed() > QUIET_AFTER_EXIT) {
                self.stdout_closed = true;
                return Next::Closed;
            }
            let now = Instant::now();
            // Whatever the process prints, look now and then whether it has
            // exited.
            if self.leftovers_killed.is_none() && now >= self.next_exit_check {
                self.next_exit_check = now + POLL;
                if self.exited() {
                    self.kill_group();
                    self.leftovers_killed = Some(now);
                }
            }
            if now >= deadline {
                return Next::Cut(Cut::Timeout);
            }
            match self.events.recv_timeout(POLL.min(deadline - now)) {
                Ok(Event::Stdout(line)) => {
                    if self.leftovers_killed.is_some() {
                        self.leftovers_killed = Some(Instant::now());
                    }
                    let flood = self.over_budget(&line);
                    self.remember(&line);
                    return if flood { Next::Cut(Cut::Flood) } else { Next::Line(line) };
                }
                Ok(Event::Stderr(line)) => {
                    let flood = self.over_budget(&line);
                    self.remember(&format!("(stderr) {line}"));
                    if flood {
                        return Next::Cut(Cut::Flood);
                    }
                    if self.merge_stderr {
                        return Next::Line(line);
                    }
                }
                Ok(Event::Dropped(bytes)) => {
                    self.answer_bytes += bytes;
                    if self.answer_bytes > MAX_ANSWER_BYTES {
                        return Next::Cut(Cut::Flood);
                    }
                }
                Ok(Event::StdoutClosed) | Err(RecvTimeoutError::Disconnected) => {
                    self.stdout_closed = true;
                    return Next::Closed;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Reads one buffered event into the tail, waiting up to `wait`; false
    /// when there was none.
    fn read_into_tail(&mut self, wait: Duration) -> bool {
        match self.events.recv_timeout(wait) {
            Ok(Event::Stdout(line)) => self.remember(&line),
            Ok(Event::Stderr(line)) => self.remember(&format!("(stderr) {line}")),
            Ok(Event::Dropped(_)) => {}
            Ok(Event::StdoutClosed) => self.stdout_closed = true,
            Err(_) => return false,
        }
        true
    }

    /// Reads what the process prints into the tail until it has been
    /// quiet for `quiet` (or `limit` has passed): output left over from an
    /// earlier answer, or a banner.
    pub(crate) fn drain(&mut self, quiet: Duration, limit: Duration) {
        let until = Instant::now() + limit;
        while Instant::now() < until && !self.stopped() && self.read_into_tail(quiet) {}
    }

    /// Waits for the process to exit until `deadline`, keeping its last
    /// output for error messages (and reading on, so a program blocked on
    /// a full pipe can finish); then kills what is left of its group and
    /// reaps it. [`Cut::Timeout`] if it is still running at the deadline,
    /// [`Cut::Stopped`] once the stop flag is raised; `Ok(None)` if it
    /// exited but could not be reaped.
    pub(crate) fn wait(&mut self, deadline: Instant) -> Result<Option<ExitStatus>, Cut> {
        while !self.exited() {
            if self.stopped() {
                return Err(Cut::Stopped);
            }
            if Instant::now() >= deadline {
                return Err(Cut::Timeout);
            }
            self.read_into_tail(Duration::from_millis(1));
        }
        self.kill_group();
        // What is still buffered, for error messages, for a moment only.
        let until = Instant::now() + FINAL_READ;
        while Instant::now() < until && self.read_into_tail(until.saturating_duration_since(Instant::now())) {
        }
        Ok(self.reap())
    }

    /// Stops the process and its group for good.
    pub(crate) fn kill(&mut self) {
        self.stdin = None;
        self.reap();
    }

    /// The last lines it printed (standard error marked), for error messages.
    pub(crate) fn tail(&self) -> String {
        if self.tail.is_empty() {
            return NO_OUTPUT.into();
        }
        self.tail.iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.readers_done.store(true, Ordering::Relaxed);
        if self.reaped {
            return;
        }
        if !self.exited() {
            // Ask politely first (UCI `quit`), then kill.
            let _ = self.send("quit");
            self.stdin = None;
            let deadline = Instant::now() + Duration::from_millis(300);
            while Instant::now() < deadline && !self.exited() {
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.reap();
    }
}
