//! The image worker thread: a request queue, prefetches, and the caches.

use super::{decode::*, encoder::*, lru::*, protocol::*};
use std::collections::VecDeque;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::SystemTime;

use image::DynamicImage;
use ratatui::layout::Size;
use ratatui_image::picker::ProtocolType;
use ratatui_image::protocol::Protocol;

/// Encoded protocols kept (LRU), per [`ImageKey`].
pub(super) const ENCODED_CAPACITY: usize = 8;
/// Images with more pixels than this are not prefetched (a decode cannot be cancelled,
/// and it would delay the current item's image).
pub(super) const PREFETCH_MAX_PIXELS: u64 = 16_000_000;
/// Prefetch requests kept pending; older ones are dropped.
pub(super) const PREFETCH_PENDING: usize = 4;

/// An image rendered to fit a target area, in cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageKey {
    pub path: PathBuf,
    pub width: u16,
    pub height: u16,
}

/// What the worker reports. A `Ready` may arrive for a key that is no longer wanted
/// (the answer to a request that was already being worked on); compare keys.
pub enum ImageEvent {
    Ready(ImageKey, Result<Protocol, String>),
}

impl fmt::Debug for ImageEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageEvent::Ready(key, Ok(p)) => {
                let s = p.size();
                write!(f, "Ready({key:?}, Ok({}x{} cells))", s.width, s.height)
            }
            ImageEvent::Ready(key, Err(e)) => write!(f, "Ready({key:?}, Err({e:?}))"),
        }
    }
}

/// Counters of the worker's work, for tests and the log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerStats {
    /// Images decoded from disk (cache misses).
    pub decodes: u64,
    /// Protocols encoded (cache misses).
    pub encodes: u64,
    /// `Ready` events sent.
    pub delivered: u64,
    /// Requests dropped after decoding because a newer request had arrived.
    pub dropped: u64,
    /// Decodes stopped part-way because their image was no longer wanted.
    pub cancelled: u64,
}

#[derive(Default)]
pub(super) struct Counters {
    decodes: AtomicU64,
    encodes: AtomicU64,
    delivered: AtomicU64,
    dropped: AtomicU64,
    cancelled: AtomicU64,
}

/// Pending work. One request at most (the newest); a few prefetches.
#[derive(Default)]
pub(super) struct Queue {
    pub(super) request: Option<ImageKey>,
    pub(super) in_flight: Option<ImageKey>,
    /// The newest key asked for: drawn again when the render settings change.
    pub(super) last: Option<ImageKey>,
    /// New render settings, taken before the next job.
    pub(super) reconfigure: Option<Render>,
    pub(super) prefetch: VecDeque<PathBuf>,
    pub(super) invalidate: bool,
    pub(super) shutdown: bool,
}

pub(super) enum Job {
    Request(ImageKey),
    Prefetch(PathBuf),
}

impl Queue {
    pub(super) fn push_request(&mut self, key: ImageKey) {
        self.last = Some(key.clone());
        if !self.invalidate && self.in_flight.as_ref() == Some(&key) {
            // Already being worked on, and will be delivered: drop whatever was pending.
            self.request = None;
        } else {
            self.request = Some(key);
        }
    }

    pub(super) fn push_prefetch(&mut self, path: PathBuf) {
        self.prefetch.retain(|p| *p != path);
        self.prefetch.push_back(path);
        while self.prefetch.len() > PREFETCH_PENDING {
            self.prefetch.pop_front();
        }
    }

    /// The next job: the request first, then the newest prefetch.
    pub(super) fn take(&mut self) -> Option<Job> {
        if let Some(key) = self.request.take() {
            self.in_flight = Some(key.clone());
            return Some(Job::Request(key));
        }
        self.prefetch.pop_back().map(Job::Prefetch)
    }

    /// Whether the in-flight request has been superseded by a newer one.
    pub(super) fn superseded(&self) -> bool {
        self.request.is_some() && self.request != self.in_flight
    }
}

pub(super) struct Shared {
    queue: Mutex<Queue>,
    wake: Condvar,
    counters: Counters,
    /// The protocol name of the current render settings.
    name: Mutex<&'static str>,
}

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, Queue> {
        // The queue holds no invariant a panic could break; keep going.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The image worker: one thread that decodes, scales and encodes; results go to `send`.
/// Dropping it stops the thread (after the job in hand) without waiting for it.
pub struct ImageWorker {
    shared: Arc<Shared>,
}

impl ImageWorker {
    /// Start the worker thread (named `verdict-image`). With `render == None` (images
    /// off) it still answers requests: with an `Err` for missing or broken files, else a
    /// "display is off" error.
    pub fn spawn(render: Option<Render>, send: Box<dyn Fn(ImageEvent) + Send>) -> ImageWorker {
        Self::spawn_with_decoder(render, send, file_decoder())
    }

    /// [`ImageWorker::spawn`] with another decoder (tests use a slow synthetic one).
    pub fn spawn_with_decoder(
        render: Option<Render>,
        send: Box<dyn Fn(ImageEvent) + Send>,
        decoder: Decoder,
    ) -> ImageWorker {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            counters: Counters::default(),
            name: Mutex::new(render.as_ref().map_or("none", Render::name)),
        });
        let state = WorkerState::new(render, decoder);
        let thread_shared = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("verdict-image".into())
            .spawn(move || run_worker(&thread_shared, state, send));
        if let Err(e) = spawned {
            log::error!("cannot start the image worker thread: {e}");
        }
        ImageWorker { shared }
    }

    /// A handle that can change the render settings from another thread.
    pub fn handle(&self) -> ImageHandle {
        ImageHandle {
            shared: Arc::clone(&self.shared),
        }
    }

    /// The protocol name of the current render settings.
    pub fn protocol_name(&self) -> &'static str {
        *self.shared.name.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ask for `key` rendered to fit its area (aspect kept, scaled up or down to fill it).
    /// Supersedes any pending request; a request already decoding is finished but not
    /// encoded if a newer one has arrived meanwhile. Repeating the pending or in-flight
    /// key is free.
    pub fn request(&self, key: ImageKey) {
        self.shared.lock().push_request(key);
        self.shared.wake.notify_one();
    }

    /// Decode (not encode) `path` ahead of time into the decoded cache. Runs only when
    /// no request is pending; the newest prefetch first; at most a few are kept.
    pub fn prefetch(&self, path: PathBuf) {
        self.shared.lock().push_prefetch(path);
        self.shared.wake.notify_one();
    }

    /// Forget every encoded protocol (decoded images stay). Call after the terminal lost
    /// its images, e.g. on resume after Ctrl-Z: kitty images are transmitted once, and a
    /// cached protocol would only send placeholders for an image the terminal dropped.
    /// Drop the protocol you hold too, and request the current key again.
    pub fn invalidate(&self) {
        self.shared.lock().invalidate = true;
        self.shared.wake.notify_one();
    }

    pub fn stats(&self) -> WorkerStats {
        let c = &self.shared.counters;
        WorkerStats {
            decodes: c.decodes.load(Ordering::Relaxed),
            encodes: c.encodes.load(Ordering::Relaxed),
            delivered: c.delivered.load(Ordering::Relaxed),
            dropped: c.dropped.load(Ordering::Relaxed),
            cancelled: c.cancelled.load(Ordering::Relaxed),
        }
    }
}

/// Changes the image worker's render settings (e.g. when the terminal's late answer to
/// the graphics query arrives).
#[derive(Clone)]
pub struct ImageHandle {
    shared: Arc<Shared>,
}

impl ImageHandle {
    /// Draw with `render` from now on: every cached encoding is dropped and the newest
    /// requested image is drawn again and delivered (a `Ready` for the same key).
    pub fn reconfigure(&self, render: Render) {
        *self.shared.name.lock().unwrap_or_else(|e| e.into_inner()) = render.name();
        self.shared.lock().reconfigure = Some(render);
        self.shared.wake.notify_one();
    }
}

impl Drop for ImageWorker {
    fn drop(&mut self) {
        let mut queue = self.shared.lock();
        queue.shutdown = true;
        queue.request = None;
        queue.prefetch.clear();
        drop(queue);
        self.shared.wake.notify_all();
    }
}

pub(super) fn run_worker(
    shared: &Shared,
    mut state: WorkerState,
    send: Box<dyn Fn(ImageEvent) + Send>,
) {
    loop {
        let job = {
            let mut queue = shared.lock();
            loop {
                if queue.shutdown {
                    return;
                }
                if let Some(render) = queue.reconfigure.take() {
                    log::info!("images: now {} ({:?})", render.name(), render);
                    state.render = Some(render);
                    state.encoded.clear();
                    if queue.request.is_none() {
                        queue.request = queue.last.clone();
                    }
                }
                if queue.invalidate {
                    queue.invalidate = false;
                    state.encoded.clear();
                }
                if let Some(job) = queue.take() {
                    break job;
                }
                queue = shared.wake.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        match job {
            Job::Prefetch(path) => {
                // A decode cannot be interrupted: a huge image prefetched for the next
                // item would hold up the current one for seconds. Those are decoded
                // only when asked for.
                if let Some((w, h)) = header_dimensions(&path)
                    && u64::from(w) * u64::from(h) > PREFETCH_MAX_PIXELS
                {
                    log::debug!("prefetch: {} is {w}x{h}, not prefetched", path.display());
                    continue;
                }
                if let Err(e) = guarded(&path, || state.decoded(&path, &shared.counters)) {
                    log::debug!("prefetch: {e}");
                }
            }
            Job::Request(key) => {
                let result = guarded(&key.path, || state.render(&key, shared));
                let mut queue = shared.lock();
                queue.in_flight = None;
                if queue.shutdown {
                    return;
                }
                match result {
                    Err(Outcome::Superseded) => {
                        shared.counters.dropped.fetch_add(1, Ordering::Relaxed);
                    }
                    result => {
                        drop(queue);
                        let result = result.map_err(|e| e.to_string());
                        shared.counters.delivered.fetch_add(1, Ordering::Relaxed);
                        send(ImageEvent::Ready(key, result));
                    }
                }
            }
        }
    }
}

/// Run a job, turning a panic inside a decoder or encoder into an error. (The panic
/// hook still runs: a hook that restores the terminal should ignore this thread.)
pub(super) fn guarded<T>(
    path: &Path,
    job: impl FnOnce() -> Result<T, Outcome>,
) -> Result<T, Outcome> {
    catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|_| {
        Err(Outcome::Failed(format!(
            "broken image: {} (the decoder crashed)",
            path.display()
        )))
    })
}

pub(super) enum Outcome {
    Failed(String),
    Superseded,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Failed(m) => f.write_str(m),
            Outcome::Superseded => f.write_str("superseded"),
        }
    }
}

impl From<String> for Outcome {
    fn from(message: String) -> Self {
        Outcome::Failed(message)
    }
}

/// A file's identity for cache validity: changed length or mtime means re-decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fingerprint {
    len: u64,
    modified: Option<SystemTime>,
}

pub(super) fn fingerprint(path: &Path) -> Result<Fingerprint, String> {
    let meta = std::fs::metadata(path).map_err(|e| read_error(path, &e))?;
    if meta.is_dir() {
        return Err(format!("not an image: {} (a directory)", path.display()));
    }
    Ok(Fingerprint {
        len: meta.len(),
        modified: meta.modified().ok(),
    })
}

pub(super) struct WorkerState {
    render: Option<Render>,
    decoded: Lru<PathBuf, (Fingerprint, DynamicImage)>,
    encoded: Lru<ImageKey, (Fingerprint, Protocol)>,
    next_kitty_id: u32,
    decoder: Decoder,
}

impl WorkerState {
    pub(super) fn new(render: Option<Render>, decoder: Decoder) -> WorkerState {
        // Kitty image ids: random start per process, so a previous run's images in the
        // same terminal window are not reused by accident.
        let seed = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        WorkerState {
            render,
            decoded: Lru::new(DECODED_CAPACITY, DECODED_BUDGET, |(_, img)| {
                img.as_bytes().len()
            }),
            encoded: Lru::new(ENCODED_CAPACITY, usize::MAX, |_| 1),
            next_kitty_id: (seed % 255) as u32 + 1,
            decoder,
        }
    }

    /// The decoded image for `path`, from the cache or the disk.
    pub(super) fn decoded(
        &mut self,
        path: &Path,
        counters: &Counters,
    ) -> Result<&DynamicImage, Outcome> {
        let print = fingerprint(path)?;
        let fresh = matches!(self.decoded.get(&path.to_path_buf()), Some((p, _)) if *p == print);
        if !fresh {
            let img = (self.decoder)(path, &|| false).map_err(|e| match e {
                DecodeError::Failed(m) => Outcome::Failed(m),
                DecodeError::Cancelled => Outcome::Superseded,
            })?;
            counters.decodes.fetch_add(1, Ordering::Relaxed);
            self.decoded.insert(path.to_path_buf(), (print, img));
        }
        match self.decoded.get(&path.to_path_buf()) {
            Some((_, img)) => Ok(img),
            None => Err(Outcome::Failed(format!(
                "image too large: {} (does not fit the image cache)",
                path.display()
            ))),
        }
    }

    pub(super) fn render(&mut self, key: &ImageKey, shared: &Shared) -> Result<Protocol, Outcome> {
        let print = fingerprint(&key.path)?;
        if let Some((p, protocol)) = self.encoded.get(key)
            && *p == print
        {
            return Ok(protocol.clone());
        }
        if key.width == 0 || key.height == 0 {
            return Err(Outcome::Failed(format!(
                "no room for the image: {} ({}x{} cells)",
                key.path.display(),
                key.width,
                key.height
            )));
        }
        // Kitty ids cycle through 1..=255 (one byte: the placeholder colour can then be
        // a 256-colour index); an old image is deleted when its successor is shown.
        let kitty_id = self.next_kitty_id;
        self.next_kitty_id = self.next_kitty_id % 255 + 1;
        let Some(render) = self.render else {
            // Display is off: still report missing and broken files.
            self.decoded(&key.path, &shared.counters)?;
            return Err(Outcome::Failed("image display is off".into()));
        };
        let img = self.decoded(&key.path, &shared.counters)?;
        if shared.lock().superseded() {
            return Err(Outcome::Superseded);
        }
        let protocol = encode(img, &render, Size::new(key.width, key.height), kitty_id)
            .map_err(|e| format!("cannot draw image: {} ({e})", key.path.display()))?;
        shared.counters.encodes.fetch_add(1, Ordering::Relaxed);
        // A kitty protocol is transmitted once and its image deleted when replaced:
        // never hand it out twice.
        if render.protocol != ProtocolType::Kitty {
            self.encoded.insert(key.clone(), (print, protocol.clone()));
        }
        Ok(protocol)
    }
}
