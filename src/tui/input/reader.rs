//! The thread that reads the terminal and feeds the [`Decoder`].

use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::Event;

use super::{Decoder, Input, Reply};

/// How long a lone `ESC` waits for the rest of a sequence before it is the Esc key.
const ESC_WAIT: Duration = Duration::from_millis(25);
/// How long an unfinished reply or string waits for its end before it is dropped.
const STRING_WAIT: Duration = Duration::from_millis(500);

/// Pauses the reader while the shell owns the terminal (Ctrl-Z).
#[derive(Clone, Default)]
pub struct Pause(Arc<AtomicBool>);

impl Pause {
    pub fn set(&self, paused: bool) {
        self.0.store(paused, Ordering::SeqCst);
    }
    fn get(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// The terminal's input: stdin if it is a terminal, else `/dev/tty`.
fn input_fd() -> io::Result<(RawFd, Option<std::fs::File>)> {
    // SAFETY: isatty only inspects the descriptor.
    if unsafe { libc::isatty(0) } == 1 {
        return Ok((0, None));
    }
    let tty = std::fs::File::open("/dev/tty")?;
    Ok((tty.as_raw_fd(), Some(tty)))
}

/// Read the terminal on a thread named `verdict-input`: events go to `on_event`, replies
/// to `on_reply`, a changed window size is reported as `Event::Resize`. The thread ends
/// when `on_event` returns false or the terminal is gone.
pub fn spawn(
    pause: Pause,
    mut on_event: impl FnMut(Event) -> bool + Send + 'static,
    mut on_reply: impl FnMut(Reply) + Send + 'static,
) -> io::Result<()> {
    let (fd, keep) = input_fd()?;
    let (winch_rx, winch_tx) = std::os::unix::net::UnixStream::pair()?;
    winch_rx.set_nonblocking(true)?;
    signal_hook::low_level::pipe::register(libc::SIGWINCH, winch_tx)?;
    std::thread::Builder::new()
        .name("verdict-input".into())
        .spawn(move || {
            let _keep = keep;
            let mut decoder = Decoder::new();
            let mut last_byte = Instant::now();
            let mut size = crossterm::terminal::size().ok();
            let mut buf = [0u8; 8192];
            loop {
                if pause.get() {
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
                let wait = if !decoder.pending() {
                    100
                } else if decoder.buf == [0x1b] {
                    ESC_WAIT.as_millis() as i32
                } else {
                    50
                };
                let mut fds = [
                    libc::pollfd {
                        fd,
                        events: libc::POLLIN,
                        revents: 0,
                    },
                    libc::pollfd {
                        fd: winch_rx.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    },
                ];
                // SAFETY: two valid pollfd structs for the duration of the call.
                let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, wait) };
                if ready < 0 {
                    if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                        continue;
                    }
                    return;
                }
                let mut inputs = Vec::new();
                if fds[0].revents & libc::POLLIN != 0 {
                    // SAFETY: reading into a buffer we own, at most its length.
                    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
                    if n <= 0 {
                        if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
                        {
                            continue;
                        }
                        return;
                    }
                    last_byte = Instant::now();
                    inputs = decoder.feed(&buf[..n as usize]);
                } else if fds[0].revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                    return;
                } else if decoder.pending() {
                    let quiet = if decoder.buf == [0x1b] {
                        ESC_WAIT
                    } else {
                        STRING_WAIT
                    };
                    if last_byte.elapsed() >= quiet {
                        inputs = decoder.flush();
                    }
                }
                if fds[1].revents & libc::POLLIN != 0 {
                    let mut sink = [0u8; 64];
                    while std::io::Read::read(&mut &winch_rx, &mut sink).is_ok_and(|n| n > 0) {}
                }
                // Resizes: on SIGWINCH, and checked on every wake-up (cheap) in case a
                // signal was missed.
                let now = crossterm::terminal::size().ok();
                if now != size
                    && let Some((w, h)) = now
                {
                    size = now;
                    inputs.push(Input::Event(Event::Resize(w, h)));
                }
                for input in inputs {
                    match input {
                        Input::Event(ev) => {
                            if !on_event(ev) {
                                return;
                            }
                        }
                        Input::Reply(r) => on_reply(r),
                    }
                }
            }
        })?;
    Ok(())
}
