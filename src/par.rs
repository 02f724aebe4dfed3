//! Work over many items split across threads, the results kept in the items' order.

/// `f(0) … f(n - 1)`, in that order, worked out on up to `threads` scoped threads, each
/// taking one run of the indices (a thread that panics panics the caller, with `what`).
pub fn map_indices<R: Send>(
    n: usize,
    threads: usize,
    what: &str,
    f: impl Fn(usize) -> R + Sync,
) -> Vec<R> {
    let chunk = n.div_ceil(threads.max(1)).max(1);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n.div_ceil(chunk))
            .map(|c| s.spawn(move || (c * chunk..((c + 1) * chunk).min(n)).map(f).collect()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h: std::thread::ScopedJoinHandle<'_, Vec<R>>| h.join().expect(what))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_index_once_in_order_on_any_number_of_threads() {
        for n in [0, 1, 2, 7, 64, 1000] {
            for threads in [0, 1, 2, 3, 8, 2000] {
                let got = super::map_indices(n, threads, "test", |i| i * 3);
                assert_eq!(
                    got,
                    (0..n).map(|i| i * 3).collect::<Vec<_>>(),
                    "{n} {threads}"
                );
            }
        }
    }
}
