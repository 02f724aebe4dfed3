//! Drive the real `verdict` binary in a pseudo-terminal and read its screen with vt100.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Pty {
    pub child: Child,
    master: File,
    screen: Arc<Mutex<vt100::Parser>>,
    /// Every byte the program wrote, in order.
    raw: Arc<Mutex<Vec<u8>>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

pub const WAIT: Duration = Duration::from_secs(20);

/// The variables a child in the test's pseudo-terminal keeps from the developer's
/// environment: none that says which terminal, multiplexer or config they use.
pub const KEPT_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "RUST_BACKTRACE",
    "LLVM_PROFILE_FILE",
];

impl Pty {
    /// Start `verdict ARGS` in a `cols`×`rows` terminal with `env` set (and images as
    /// half-blocks, so no terminal query is ever waited for).
    pub fn spawn<I, S>(args: I, env: &[(&str, String)], cols: u16, rows: u16) -> Pty
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        // VERDICT_TEST_BIN runs the tests against another build (e.g. an older one, to
        // see a new test fail there).
        let bin = std::env::var("VERDICT_TEST_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_verdict").to_string());
        Pty::spawn_program(&bin, args, env, cols, rows)
    }

    /// Like `spawn`, for another program (a shell that sets limits, then execs verdict).
    pub fn spawn_program<I, S>(
        program: &str,
        args: I,
        env: &[(&str, String)],
        cols: u16,
        rows: u16,
    ) -> Pty
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut master: libc::c_int = -1;
        let mut slave: libc::c_int = -1;
        let ws = libc::winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty writes two fds; the pointers are valid for the call.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &ws,
            )
        };
        assert_eq!(rc, 0, "openpty failed");
        // SAFETY: both fds were just opened and are owned here.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let mut cmd = Command::new(program);
        // Nothing of the developer's terminal reaches the child (inside tmux, `TMUX`
        // made it query tmux and wait; `TERM_PROGRAM`, `LC_TERMINAL`, `COLORTERM`, a
        // config folder change what it draws): only what any shell has, then `env`.
        cmd.env_clear();
        for k in KEPT_ENV {
            if let Some(v) = std::env::var_os(k) {
                cmd.env(k, v);
            }
        }
        cmd.args(args)
            .env("TERM", "xterm-256color")
            .env("VERDICT_IMAGE_PROTOCOL", "halfblocks")
            .env_remove("NO_COLOR")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave.try_clone().unwrap()));
        for (k, v) in env {
            cmd.env(k, v);
        }
        let slave_fd = slave.as_raw_fd();
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::ioctl(slave_fd, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("spawn verdict");
        drop(slave);
        let master = File::from(master);
        let screen = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let mut r = master.try_clone().unwrap();
        let s2 = screen.clone();
        let raw = Arc::new(Mutex::new(Vec::new()));
        let raw2 = raw.clone();
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            loop {
                match r.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        raw2.lock().unwrap().extend_from_slice(&buf[..n]);
                        s2.lock().unwrap().process(&buf[..n]);
                    }
                }
            }
        });
        Pty {
            child,
            master,
            screen,
            raw,
            reader: Some(reader),
        }
    }

    /// Every byte the program has written so far.
    pub fn raw_bytes(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    /// Wait until the raw output contains `text`; the bytes from its first occurrence on.
    pub fn wait_for_raw(&self, text: &str) -> Vec<u8> {
        let start = Instant::now();
        loop {
            let raw = self.raw_bytes();
            if let Some(at) = raw.windows(text.len()).position(|w| w == text.as_bytes()) {
                // let whatever follows arrive too
                std::thread::sleep(Duration::from_millis(200));
                return self.raw_bytes()[at..].to_vec();
            }
            if start.elapsed() > WAIT {
                panic!(
                    "timed out waiting for {text:?}; output:\n{}",
                    String::from_utf8_lossy(&raw)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Wait until the screen contains `text`; panic with the screen if it never does.
    pub fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let c = self.contents();
            if c.contains(text) {
                return c;
            }
            if start.elapsed() > WAIT {
                panic!("timed out waiting for {text:?}; screen:\n{c}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Look at the screen model (cells, colours, cursor).
    /// The screen's first row (the header).
    pub fn header(&self) -> String {
        self.with_screen(|s| s.contents().lines().next().unwrap_or_default().to_string())
    }
    pub fn with_screen<T>(&self, f: impl FnOnce(&vt100::Screen) -> T) -> T {
        f(self.screen.lock().unwrap().screen())
    }

    /// Every byte the program wrote so far.
    pub fn output(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    /// How many bytes the program wrote so far (a mark for `output()[mark..]`).
    pub fn mark(&self) -> usize {
        self.raw.lock().unwrap().len()
    }

    /// Wait until the output from `from` on contains `needle`; the offset just past it.
    pub fn wait_for_bytes(&self, needle: &[u8], from: usize) -> usize {
        let start = Instant::now();
        loop {
            {
                let raw = self.raw.lock().unwrap();
                if let Some(p) = raw[from.min(raw.len())..]
                    .windows(needle.len())
                    .position(|w| w == needle)
                {
                    return from + p + needle.len();
                }
            }
            if start.elapsed() > WAIT {
                panic!(
                    "timed out waiting for the bytes {:?}; screen:\n{}",
                    String::from_utf8_lossy(needle),
                    self.contents()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Write bytes as the terminal would (a reply, or keys), without pausing.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).unwrap();
        self.master.flush().unwrap();
    }

    /// Resize the terminal to `cols`×`rows` cells of `px` pixels in all (0, 0: none
    /// told), as a terminal does when its window or its font changes (the kernel signals
    /// the program).
    pub fn resize(&self, cols: u16, rows: u16, px: (u16, u16)) {
        let ws = libc::winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: px.0,
            ws_ypixel: px.1,
        };
        // SAFETY: TIOCSWINSZ reads a winsize the pointer is valid for.
        let rc = unsafe { libc::ioctl(self.master.as_raw_fd(), libc::TIOCSWINSZ, &ws) };
        assert_eq!(rc, 0, "TIOCSWINSZ failed");
    }

    /// Whether the program is still running.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    pub fn send(&mut self, bytes: &str) {
        self.master.write_all(bytes.as_bytes()).unwrap();
        self.master.flush().unwrap();
        // Give the app a moment, like a person between keys.
        std::thread::sleep(Duration::from_millis(60));
    }

    /// Wait for the process to end; its exit status.
    pub fn wait_exit(&mut self) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                return st;
            }
            if start.elapsed() > WAIT {
                let _ = self.child.kill();
                panic!("verdict did not exit; screen:\n{}", self.contents());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn signal(&self, sig: libc::c_int) {
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(self.child.id() as libc::pid_t, sig) };
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(r) = self.reader.take() {
            drop(r);
        }
    }
}

/// A temporary folder with copies of tests/fixtures/tui, plus data and config folders.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tui");
        let dir = tempfile::tempdir().unwrap();
        for f in std::fs::read_dir(&src).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), dir.path().join(f.file_name())).unwrap();
        }
        std::fs::create_dir_all(dir.path().join("data")).unwrap();
        std::fs::create_dir_all(dir.path().join("config")).unwrap();
        Sandbox { dir }
    }
    pub fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }
    pub fn open(&self, file: &str, extra: &[&str], fold_ms: u64) -> Pty {
        self.open_with(file, extra, fold_ms, &[])
    }
    /// Open `file` as erin at 100×30 (no fold while it runs) with the file's scan held
    /// after its first `after` items until `gate` exists (`VERDICT_TEST_SCAN_GATE`), with
    /// `extra` arguments.
    pub fn open_gated(&self, file: &str, after: usize, gate: &Path, extra: &[&str]) -> Pty {
        let gate = format!("{after}:{}", gate.display());
        self.open_with(file, extra, 600_000, &[("VERDICT_TEST_SCAN_GATE", gate)])
    }
    /// Open `file` as erin at 100×30 (no fold while it runs) with a panic injected at
    /// `place` (`VERDICT_TEST_PANIC`: index, search, io).
    pub fn open_panicking(&self, file: &str, place: &str) -> Pty {
        self.open_with(file, &[], 600_000, &[("VERDICT_TEST_PANIC", place.into())])
    }
    /// Open `file` as erin at 100×30 (no fold while it runs) with `extra` arguments and
    /// the variables `vars` (e.g. a terminal's or a multiplexer's).
    pub fn open_env(&self, file: &str, extra: &[&str], vars: &[(&'static str, String)]) -> Pty {
        self.open_with(file, extra, 600_000, vars)
    }
    /// Open `file` as erin at 100×30 with `extra` arguments, the sandbox's data and config
    /// folders, a fold after `fold_ms` and the variables `vars`.
    fn open_with(
        &self,
        file: &str,
        extra: &[&str],
        fold_ms: u64,
        vars: &[(&'static str, String)],
    ) -> Pty {
        let mut args: Vec<String> = vec![
            self.path(file).display().to_string(),
            "-r".into(),
            "erin".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut env = vec![
            ("VERDICT_DATA_DIR", self.path("data").display().to_string()),
            (
                "VERDICT_CONFIG_DIR",
                self.path("config").display().to_string(),
            ),
            ("VERDICT_FOLD_AFTER_MS", fold_ms.to_string()),
        ];
        env.extend(vars.iter().cloned());
        Pty::spawn(args, &env, 100, 30)
    }
    pub fn review(&self, file: &str, id: &str, reviewer: &str) -> Option<serde_json::Value> {
        let text = std::fs::read_to_string(self.path(file)).unwrap();
        for l in text.lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            if v["id"] == id {
                return v.get("reviews").and_then(|r| r.get(reviewer)).cloned();
            }
        }
        panic!("no item {id}")
    }
}

/// Cohen's kappa by the textbook formula, for two raters' labels on the same units:
/// (po − pe) / (1 − pe); `None` when pe = 1 (both raters used one and the same label).
pub fn hand_kappa<S: AsRef<str>>(pairs: &[(S, S)]) -> Option<f64> {
    let n = pairs.len() as f64;
    let cats: std::collections::BTreeSet<&str> = pairs
        .iter()
        .flat_map(|(a, b)| [a.as_ref(), b.as_ref()])
        .collect();
    let po = pairs
        .iter()
        .filter(|(a, b)| a.as_ref() == b.as_ref())
        .count() as f64
        / n;
    let pe: f64 = cats
        .iter()
        .map(|c| {
            let pa = pairs.iter().filter(|(a, _)| a.as_ref() == *c).count() as f64 / n;
            let pb = pairs.iter().filter(|(_, b)| b.as_ref() == *c).count() as f64 / n;
            pa * pb
        })
        .sum();
    if (1.0 - pe).abs() < 1e-12 {
        None
    } else {
        Some((po - pe) / (1.0 - pe))
    }
}
