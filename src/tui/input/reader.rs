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
            let mut reader = Reader {
                fd,
                winch_rx,
                decoder: Decoder::new(),
                last_byte: Instant::now(),
                size: window_size(),
                buf: [0u8; 8192],
            };
            loop {
                if pause.get() {
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
                let inputs = match reader.next_inputs() {
                    Next::Inputs(inputs) => inputs,
                    Next::Again => continue,
                    Next::Stop => return,
                };
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

/// What one wake-up of the input thread gives.
enum Next {
    /// What the terminal sent (none, when the wait ran out with nothing to flush).
    Inputs(Vec<Input>),
    /// Interrupted by a signal: wait again.
    Again,
    /// The terminal is gone.
    Stop,
}

/// The input thread's state: the terminal, the SIGWINCH pipe, and the bytes decoded.
struct Reader {
    fd: RawFd,
    winch_rx: std::os::unix::net::UnixStream,
    decoder: Decoder,
    last_byte: Instant,
    /// Cells and pixels, as the tty last said.
    size: Option<[u16; 4]>,
    buf: [u8; 8192],
}

/// The tty's window size: columns, rows, and its pixels (0 where the terminal tells none).
fn window_size() -> Option<[u16; 4]> {
    let ws = crossterm::terminal::window_size().ok()?;
    Some([ws.columns, ws.rows, ws.width, ws.height])
}

impl Reader {
    /// Wait for bytes or a resize (shorter while an escape sequence is pending), then
    /// decode what came, or what a quiet terminal left pending.
    fn next_inputs(&mut self) -> Next {
        let wait = if !self.decoder.pending() {
            100
        } else if self.decoder.buf == [0x1b] {
            ESC_WAIT.as_millis() as i32
        } else {
            50
        };
        let mut fds = [
            libc::pollfd {
                fd: self.fd,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: self.winch_rx.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: two valid pollfd structs for the duration of the call.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, wait) };
        if ready < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                return Next::Again;
            }
            return Next::Stop;
        }
        let mut inputs = match self.terminal_input(fds[0].revents) {
            Next::Inputs(inputs) => inputs,
            other => return other,
        };
        if fds[1].revents & libc::POLLIN != 0 {
            let mut sink = [0u8; 64];
            while std::io::Read::read(&mut &self.winch_rx, &mut sink).is_ok_and(|n| n > 0) {}
        }
        // Resizes: on SIGWINCH, and checked on every wake-up (cheap) in case a
        // signal was missed. A change of pixels alone (a font change) is a reply: the
        // cell size is measured again.
        let now = window_size();
        if now != self.size
            && let Some([w, h, ..]) = now
        {
            let cells = self.size.map(|s| [s[0], s[1]]);
            self.size = now;
            if cells != Some([w, h]) {
                inputs.push(Input::Event(Event::Resize(w, h)));
            }
            inputs.push(Input::Reply(Reply::WindowChanged));
        }
        Next::Inputs(inputs)
    }

    /// The terminal's bytes decoded (`revents`: what poll said of it), or, when it is
    /// quiet long enough, what the decoder held back.
    fn terminal_input(&mut self, revents: libc::c_short) -> Next {
        let fd = self.fd;
        let mut inputs = Vec::new();
        if revents & libc::POLLIN != 0 {
            // SAFETY: reading into a buffer we own, at most its length.
            let n = unsafe { libc::read(fd, self.buf.as_mut_ptr().cast(), self.buf.len()) };
            if n <= 0 {
                if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    return Next::Again;
                }
                return Next::Stop;
            }
            self.last_byte = Instant::now();
            inputs = self.decoder.feed(&self.buf[..n as usize]);
        } else if revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            return Next::Stop;
        } else if self.decoder.pending() {
            let quiet = if self.decoder.buf == [0x1b] {
                ESC_WAIT
            } else {
                STRING_WAIT
            };
            if self.last_byte.elapsed() >= quiet {
                inputs = self.decoder.flush();
            }
        }
        Next::Inputs(inputs)
    }
}
