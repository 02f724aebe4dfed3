//! The image worker's two threads ([`run_worker`], [`run_prefetch`]) and what they share
//! ([`Shared`]: the pending work, the decoded cache, the counters).

use super::{decode::*, encoder::*, lru::*, protocol::*, worker::*};
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::SystemTime;

use image::DynamicImage;
use ratatui::layout::Size;
use ratatui_image::picker::ProtocolType;
use ratatui_image::protocol::Protocol;

pub(super) type DecodedCache = Lru<PathBuf, (Fingerprint, Arc<DynamicImage>)>;

pub(super) struct Shared {
    pub(super) queue: Mutex<Queue>,
    pub(super) wake: Condvar,
    pub(super) counters: Counters,
    /// How the current render settings draw.
    pub(super) drawing: Mutex<Drawing>,
    /// Decoded images, shared by both threads.
    pub(super) decoded: Mutex<DecodedCache>,
    pub(super) decoder: Decoder,
}

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, Queue> {
        // The queue holds no invariant a panic could break; keep going.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn cache(&self) -> MutexGuard<'_, DecodedCache> {
        self.decoded.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn cached(&self, path: &Path, print: Fingerprint) -> Option<Arc<DynamicImage>> {
        match self.cache().get(&path.to_path_buf()) {
            Some((p, img)) if *p == print => Some(Arc::clone(img)),
            _ => None,
        }
    }

    /// Decode `path` into the cache, asking between pieces of work whether it is still
    /// wanted ([`Queue::wanted`]). The image is returned even if the cache's budget
    /// evicts it at once.
    fn decode(&self, path: &Path, print: Fingerprint) -> Result<Arc<DynamicImage>, Outcome> {
        let cancel = || !self.lock().wanted(path);
        match (self.decoder)(path, &cancel) {
            Ok(img) => {
                self.counters.decodes.fetch_add(1, Ordering::Relaxed);
                let img = Arc::new(img);
                self.cache()
                    .insert(path.to_path_buf(), (print, Arc::clone(&img)));
                Ok(img)
            }
            Err(DecodeError::Failed(m)) => Err(Outcome::Failed(m)),
            Err(DecodeError::Cancelled) => {
                self.counters.cancelled.fetch_add(1, Ordering::Relaxed);
                log::debug!(
                    "images: stopped decoding {} (no longer wanted)",
                    path.display()
                );
                Err(Outcome::Superseded)
            }
        }
    }

    /// The decoded image for the current request's `path`: from the cache, from the
    /// prefetch thread if it is decoding that very image (waited for, not decoded
    /// twice), else decoded here.
    fn decoded_for_request(&self, path: &Path) -> Result<Arc<DynamicImage>, Outcome> {
        let print = fingerprint(path)?;
        loop {
            if let Some(img) = self.cached(path, print) {
                return Ok(img);
            }
            let mut queue = self.lock();
            if queue.prefetching.as_deref() != Some(path) {
                break;
            }
            if queue.superseded() || queue.shutdown {
                return Err(Outcome::Superseded);
            }
            queue = self.wake.wait(queue).unwrap_or_else(|e| e.into_inner());
            drop(queue);
        }
        self.decode(path, print)
    }
}

pub(super) fn run_worker(
    shared: &Shared,
    mut state: WorkerState,
    send: Box<dyn Fn(ImageEvent) + Send>,
) {
    loop {
        let key = {
            let mut queue = shared.lock();
            loop {
                if queue.shutdown {
                    return;
                }
                if let Some(render) = queue.reconfigure.take() {
                    log::info!("images: now {} ({:?})", render.name(), render);
                    state.render = Some(render);
                    state.off_reason = None;
                    state.encoded.clear();
                    if queue.request.is_none() {
                        queue.request = queue.last.clone();
                    }
                }
                if let Some(reason) = queue.switch_off.take() {
                    log::info!("images: off ({reason})");
                    state.render = None;
                    state.off_reason = Some(reason);
                    state.encoded.clear();
                    if queue.request.is_none() {
                        queue.request = queue.last.clone();
                    }
                }
                if queue.invalidate {
                    queue.invalidate = false;
                    state.encoded.clear();
                }
                if let Some(key) = queue.take() {
                    break key;
                }
                queue = shared.wake.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
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

/// The prefetch thread: decodes the newest prefetch into the shared cache, stopping
/// part-way when it is no longer wanted.
pub(super) fn run_prefetch(shared: &Shared) {
    loop {
        let path = {
            let mut queue = shared.lock();
            loop {
                if queue.shutdown {
                    return;
                }
                if let Some(path) = queue.take_prefetch() {
                    break path;
                }
                queue = shared.wake.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        let result = guarded(&path, || prefetch(shared, &path));
        if let Err(Outcome::Failed(e)) = result {
            log::debug!("prefetch: {e}");
        }
        shared.lock().prefetching = None;
        // A request may be waiting for this very image.
        shared.wake.notify_all();
    }
}

fn prefetch(shared: &Shared, path: &Path) -> Result<(), Outcome> {
    let print = fingerprint(path)?;
    if shared.cached(path, print).is_some() {
        return Ok(());
    }
    // The request thread is decoding it already.
    if shared
        .lock()
        .in_flight
        .as_ref()
        .is_some_and(|k| k.path == path)
    {
        return Ok(());
    }
    if !decodes_in_pieces(path)
        && let Some((w, h)) = header_dimensions(path)
        && u64::from(w) * u64::from(h) > PREFETCH_MAX_PIXELS
    {
        log::debug!(
            "prefetch: {} is {w}x{h} and decodes whole, not prefetched",
            path.display()
        );
        return Ok(());
    }
    shared.decode(path, print).map(|_| ())
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
    // Not a regular file (a FIFO, `/dev/tty`, a folder): refused here, before anything
    // opens it.
    let meta = regular_metadata(path)?;
    Ok(Fingerprint {
        len: meta.len(),
        modified: meta.modified().ok(),
    })
}

pub(super) struct WorkerState {
    render: Option<Render>,
    encoded: Lru<ImageKey, (Fingerprint, Protocol)>,
    next_kitty_id: u32,
    /// Why images are off, when switched off ([`ImageHandle::switch_off`]).
    off_reason: Option<String>,
}

impl WorkerState {
    pub(super) fn new(render: Option<Render>) -> WorkerState {
        // Kitty image ids: random start per process, so a previous run's images in the
        // same terminal window are not reused by accident.
        let seed = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        WorkerState {
            render,
            encoded: Lru::new(ENCODED_CAPACITY, usize::MAX, |_| 1),
            next_kitty_id: (seed % 255) as u32 + 1,
            off_reason: None,
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
            shared.decoded_for_request(&key.path)?;
            let reason = self.off_reason.as_deref().unwrap_or("image display is off");
            return Err(Outcome::Failed(reason.into()));
        };
        let img = shared.decoded_for_request(&key.path)?;
        if shared.lock().superseded() {
            return Err(Outcome::Superseded);
        }
        let protocol = encode(&img, &render, Size::new(key.width, key.height), kitty_id)
            .map_err(|e| format!("cannot draw image: {} ({e})", key.path.display()))?;
        shared.counters.encodes.fetch_add(1, Ordering::Relaxed);
        // A kitty protocol is transmitted once and its image deleted when replaced:
        // never hand it out twice.
        if render.protocol != ProtocolType::Kitty || render.kitty_direct {
            self.encoded.insert(key.clone(), (print, protocol.clone()));
        }
        Ok(protocol)
    }
}
