//! The file's bytes: mapped from the file (the page cache's pages, not private memory),
//! or owned (stores built in memory).
//!
//! A mapped file that another program truncates would make reading the lost pages raise
//! SIGBUS and kill the process. A SIGBUS handler (installed once) puts zero-filled pages
//! in place of the lost ones in our mappings, and marks the mapping damaged: the reviewer
//! then sees unreadable items instead of crashing, and the store refuses to save over the
//! changed file (its stamp differs as well). A SIGBUS elsewhere keeps its default action.

use std::fs::File;
use std::io;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

pub enum Bytes {
    Owned(Vec<u8>),
    #[cfg(unix)]
    Mapped {
        map: memmap2::Mmap,
        file: File,
        slot: usize,
        seen: Seen,
    },
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bytes::Owned(v) => write!(f, "Owned({} bytes)", v.len()),
            #[cfg(unix)]
            Bytes::Mapped { map, .. } => write!(f, "Mapped({} bytes)", map.len()),
        }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            #[cfg(unix)]
            Bytes::Mapped { map, .. } => map,
        }
    }
}

impl Bytes {
    /// Map `file` (`len` bytes, from its metadata). Falls back to reading it when it
    /// cannot be mapped (or is empty).
    pub fn map(file: File, len: u64, map: bool) -> io::Result<Bytes> {
        #[cfg(unix)]
        if len > 0 && map {
            install_handler();
            // SAFETY: the mapping is read-only. Another program may change the file
            // under us: changed bytes show through (the store's stamp refuses a save
            // then), and pages lost to a truncation are replaced by the SIGBUS handler.
            if let Ok(map) = unsafe { memmap2::MmapOptions::new().len(len as usize).map(&file) } {
                let _ = map.advise(memmap2::Advice::Sequential);
                let slot = register(map.as_ptr() as usize, map.len());
                let seen = Seen::of(&file)?;
                return Ok(Bytes::Mapped {
                    map,
                    file,
                    slot,
                    seen,
                });
            }
        }
        let mut v = Vec::with_capacity(len as usize);
        io::Read::read_to_end(&mut io::Read::take(file, len), &mut v)?;
        Ok(Bytes::Owned(v))
    }

    /// The file the bytes are mapped from.
    pub fn file(&self) -> Option<&File> {
        match self {
            Bytes::Owned(_) => None,
            #[cfg(unix)]
            Bytes::Mapped { file, .. } => Some(file),
        }
    }

    /// Has another program written the mapped file in place since it was mapped (so
    /// that the bytes seen may no longer be the ones indexed)? Checked with `fstat`
    /// at most every 20 ms; once seen, it stays so.
    pub fn changed_on_disk(&self) -> bool {
        match self {
            Bytes::Owned(_) => false,
            #[cfg(unix)]
            Bytes::Mapped {
                file, seen, slot, ..
            } => {
                if seen.changed.load(Ordering::Relaxed)
                    || (*slot < SLOTS && DAMAGED[*slot].load(Ordering::Relaxed))
                {
                    return true;
                }
                let now = seen.origin.elapsed().as_millis() as u64;
                let last = seen.checked_ms.load(Ordering::Relaxed);
                if now < last + 20 {
                    return false;
                }
                seen.checked_ms.store(now, Ordering::Relaxed);
                let changed = seen.changed(file);
                if changed {
                    seen.changed.store(true, Ordering::Relaxed);
                }
                changed
            }
        }
    }

    /// Drop this process's page tables of a mapped file (its pages stay in the page cache
    /// and are mapped again when read): unmapping a file every page of which was read
    /// costs ~0.1 s per 2 GB, which would otherwise be paid when the reviewer quits.
    pub fn release_pages(&self) {
        #[cfg(unix)]
        if let Bytes::Mapped { map, .. } = self {
            // SAFETY: a read-only shared mapping of a file: MADV_DONTNEED drops only the
            // page table entries, and the next read maps the file's page again, with the
            // same bytes (a file changed under us shows as any change does, see above).
            let _ = unsafe { map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
        }
    }

    /// Were pages of the mapping lost (the file was truncated under us)?
    pub fn damaged(&self) -> bool {
        match self {
            Bytes::Owned(_) => false,
            #[cfg(unix)]
            Bytes::Mapped { slot, .. } => *slot < SLOTS && DAMAGED[*slot].load(Ordering::SeqCst),
        }
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Bytes::Mapped { slot, .. } = self
            && *slot < SLOTS
        {
            LEN[*slot].store(0, Ordering::SeqCst);
            START[*slot].store(0, Ordering::SeqCst);
            DAMAGED[*slot].store(false, Ordering::SeqCst);
        }
    }
}

/// What the mapped file looked like when it was mapped (size, mtime and ctime to the
/// nanosecond, from `fstat` of the mapped descriptor: a rename over the path does not
/// change it, a write in place does).
pub struct Seen {
    stamp: std::sync::Mutex<[i64; 6]>,
    origin: std::time::Instant,
    checked_ms: AtomicU64,
    changed: AtomicBool,
}

impl Seen {
    /// Size, mtime, ctime (to the nanosecond) and link count.
    #[cfg(unix)]
    fn stamp(file: &File) -> Option<[i64; 6]> {
        use std::os::unix::fs::MetadataExt;
        let m = file.metadata().ok()?;
        Some([
            m.size() as i64,
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec(),
            m.nlink() as i64,
        ])
    }

    #[cfg(unix)]
    fn of(file: &File) -> io::Result<Seen> {
        Ok(Seen {
            stamp: std::sync::Mutex::new(
                Seen::stamp(file).ok_or_else(|| io::Error::other("fstat failed"))?,
            ),
            origin: std::time::Instant::now(),
            checked_ms: AtomicU64::new(0),
            changed: AtomicBool::new(false),
        })
    }

    /// Compare with the file now. A new ctime with the same size and mtime and another
    /// link count is a link or unlink (a save, ours or another session's, renamed a
    /// new file over this one): the content is the same, and that is remembered.
    #[cfg(unix)]
    fn changed(&self, file: &File) -> bool {
        let Some(now) = Seen::stamp(file) else {
            return true;
        };
        let mut old = self.stamp.lock().unwrap_or_else(|e| e.into_inner());
        if now == *old {
            return false;
        }
        if now[..3] == old[..3] && now[5] != old[5] {
            *old = now;
            return false;
        }
        true
    }
}

// The mappings the handler may repair: a fixed table, so the handler reads it without
// locks or allocation. A mapping beyond the table's size works, unprotected.
const SLOTS: usize = 64;
static START: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static LEN: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static DAMAGED: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];
static PAGE: AtomicUsize = AtomicUsize::new(4096);

#[cfg(unix)]
fn register(start: usize, len: usize) -> usize {
    for i in 0..SLOTS {
        if START[i]
            .compare_exchange(0, start, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            DAMAGED[i].store(false, Ordering::SeqCst);
            LEN[i].store(len, Ordering::SeqCst);
            return i;
        }
    }
    SLOTS
}

#[cfg(unix)]
static mut OLD: std::mem::MaybeUninit<libc::sigaction> = std::mem::MaybeUninit::uninit();

#[cfg(unix)]
fn install_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: sysconf and sigaction with valid, initialised arguments; OLD is
        // written once here, before the handler can run.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE);
            if page > 0 {
                PAGE.store(page as usize, Ordering::SeqCst);
            }
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_sigbus as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_NODEFER;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(
                libc::SIGBUS,
                &sa,
                std::ptr::addr_of_mut!(OLD).cast::<libc::sigaction>(),
            );
        }
    });
}

/// Only async-signal-safe work: atomics and `mmap`.
#[cfg(unix)]
extern "C" fn on_sigbus(_sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    let page = PAGE.load(Ordering::SeqCst);
    for i in 0..SLOTS {
        let start = START[i].load(Ordering::SeqCst);
        let len = LEN[i].load(Ordering::SeqCst);
        if start != 0 && addr >= start && addr < start + len {
            let from = addr & !(page - 1);
            let end = (start + len).div_ceil(page) * page;
            // SAFETY: replaces pages of our own read-only mapping with zeroed ones.
            let p = unsafe {
                libc::mmap(
                    from as *mut libc::c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if p != libc::MAP_FAILED {
                DAMAGED[i].store(true, Ordering::SeqCst);
                return; // the read is retried and finds zeros
            }
        }
    }
    // Not ours: put back the previous action; returning re-raises the fault under it.
    // SAFETY: OLD was filled by sigaction in install_handler.
    unsafe {
        libc::sigaction(
            libc::SIGBUS,
            std::ptr::addr_of!(OLD).cast::<libc::sigaction>(),
            std::ptr::null_mut(),
        );
    }
}
