//! What the tests that run other programs share (tests/interop.rs, tests/browser.rs): scratch
//! directories, child processes that cannot outlive a test, and commands run into a log file.
//! Included by each as a module (`#[path]`), since every file under tests/ is its own crate.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A scratch directory for one test (database, logs, results), removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh directory named after the test binary (`prefix`) and the test.
    pub fn new(prefix: &str, name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("kd-{prefix}-{name}-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).expect("create the scratch directory");
        Self(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process, killed when dropped (also when a test panics or times out).
///
/// Scripts run in their own process group, so a timed-out one is killed with its own children
/// (the auth proxy, node); they end by themselves otherwise. The server stays in the test's
/// group, so a Ctrl-C that kills the test run reaches it too: nothing else would ever stop it.
pub struct Process {
    pub child: Child,
    own_group: bool,
}

impl Process {
    pub fn spawn(cmd: &mut Command, own_group: bool) -> Self {
        if own_group {
            cmd.process_group(0);
        }
        let program = cmd.get_program().to_string_lossy().into_owned();
        let child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        Self { child, own_group }
    }

    /// Waits up to `timeout`; `None` when it ran out (drop then kills it).
    pub fn wait_timeout(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("wait for a child") {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Only while it runs (not yet reaped), so its pid and group id are still its own.
        if self.child.try_wait().ok().flatten().is_none() {
            if self.own_group {
                // The group id is the child's pid (process_group(0)); std has no killpg.
                let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", self.child.id())]).status();
            }
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Runs a command with stdout and stderr into one log file; its exit status (None on timeout)
/// and the log.
pub fn run_logged(cmd: &mut Command, log: &Path, timeout: Duration) -> (Option<ExitStatus>, String) {
    let file = File::create(log).expect("create a log file");
    cmd.stdin(Stdio::null()).stdout(file.try_clone().expect("clone the log file")).stderr(file);
    let mut child = Process::spawn(cmd, true);
    let status = child.wait_timeout(timeout);
    drop(child);
    (status, std::fs::read_to_string(log).unwrap_or_default())
}

/// The lines a child prints, read on a thread, so a server that never prints cannot hang the
/// test; the thread then drains the output until the child exits.
pub fn printed_lines(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (lines, received) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    received
}
