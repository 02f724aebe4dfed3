//! The command line every bench reads: `--full` (or `VERDICT_BENCH_FULL=1`), `--sizes
//! a,b`, `--runs n`, the `--bench` that `cargo bench` passes (without it, under `cargo
//! test`, a bench makes a quick smoke run), and switches of its own (`--keys-only`, …).
//! Anything else (a name filter) is ignored.

pub struct Args {
    pub full: bool,
    pub bench: bool,
    pub sizes: Option<Vec<usize>>,
    pub runs: Option<usize>,
    switches: Vec<String>,
}

impl Args {
    pub fn parse() -> Args {
        let mut a = Args {
            full: std::env::var("VERDICT_BENCH_FULL").is_ok_and(|v| v == "1"),
            bench: false,
            sizes: None,
            runs: None,
            switches: Vec::new(),
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--full" => a.full = true,
                "--bench" => a.bench = true,
                "--sizes" => {
                    let v = args
                        .next()
                        .expect("--sizes needs a list, e.g. 10000,100000");
                    a.sizes = Some(
                        v.split(',')
                            .map(|s| s.trim().parse().expect("--sizes: not a number"))
                            .collect(),
                    );
                }
                "--runs" => {
                    let v = args.next().expect("--runs needs a number");
                    a.runs = Some(v.parse().expect("--runs: not a number"));
                }
                s if s.starts_with("--") => a.switches.push(arg),
                _ => {}
            }
        }
        a
    }

    /// Is this a smoke run (`cargo test`, no size asked for)?
    pub fn smoke(&self) -> bool {
        !self.bench && !self.full && self.sizes.is_none()
    }

    /// Was `--<name>` given?
    pub fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }

    /// The sizes asked for; else 1,000 items for a smoke run, `full` with `--full`, or
    /// `usual`.
    pub fn sizes_or(&self, usual: &[usize], full: &[usize]) -> Vec<usize> {
        match &self.sizes {
            Some(s) => s.clone(),
            None if self.smoke() => vec![1000],
            None if self.full => full.to_vec(),
            None => usual.to_vec(),
        }
    }
}
