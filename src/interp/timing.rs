//! `%timeit` and `%time`: IPython's algorithm and exact output format.

use std::any::Any;
use std::rc::Rc;
use std::sync::Mutex;
use std::time::Instant;

use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::value::{Object, Value};

/// IPython's `_format_time`: 3 significant digits and ns/μs/ms/s, or d/h/min/s from 60 s.
pub fn format_time(t: f64, precision: usize) -> String {
    if t >= 60.0 {
        let mut parts = Vec::new();
        let mut left = t;
        for (suffix, length) in [("d", 86400.0), ("h", 3600.0), ("min", 60.0), ("s", 1.0)] {
            let value = (left / length).floor();
            if value > 0.0 {
                left %= length;
                parts.push(format!("{}{}", value as i64, suffix));
            }
            if left < 1.0 {
                break;
            }
        }
        return parts.join(" ");
    }
    // U+03BC, as IPython >= 8.25 prints it.
    let units = ["s", "ms", "\u{3bc}s", "ns"];
    let scaling = [1.0, 1e3, 1e6, 1e9];
    let order = if t > 0.0 {
        let f = t.log10().floor() as i64;
        (-(f.div_euclid(3))).clamp(0, 3) as usize
    } else {
        3
    };
    format!(
        "{} {}",
        crate::interp::repr::general(t * scaling[order], precision, false),
        units[order]
    )
}

/// The result of `%timeit -o`.
#[derive(Clone, Debug)]
pub struct TimeitResult {
    pub loops: u64,
    pub repeat: usize,
    pub all_runs: Vec<f64>,
    pub precision: usize,
}

impl TimeitResult {
    pub fn timings(&self) -> Vec<f64> {
        self.all_runs
            .iter()
            .map(|r| r / self.loops as f64)
            .collect()
    }
    pub fn average(&self) -> f64 {
        let t = self.timings();
        t.iter().sum::<f64>() / t.len() as f64
    }
    pub fn stdev(&self) -> f64 {
        let t = self.timings();
        let mean = self.average();
        (t.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / t.len() as f64).sqrt()
    }
    pub fn best(&self) -> f64 {
        self.timings().into_iter().fold(f64::INFINITY, f64::min)
    }
    pub fn worst(&self) -> f64 {
        self.timings().into_iter().fold(0.0, f64::max)
    }
    /// `TimeitResult.__str__`.
    pub fn line(&self) -> String {
        let runs = self.repeat;
        format!(
            "{} \u{b1} {} per loop (mean \u{b1} std. dev. of {} run{}, {} loop{} each)",
            format_time(self.average(), self.precision),
            format_time(self.stdev(), self.precision),
            runs,
            if runs == 1 { "" } else { "s" },
            group_thousands(self.loops),
            if self.loops == 1 { "" } else { "s" }
        )
    }
}

fn group_thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Object for TimeitResult {
    fn type_name(&self) -> String {
        "TimeitResult".into()
    }
    fn module_name(&self) -> String {
        "IPython.core.magics.execution".into()
    }
    fn repr(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(format!("<TimeitResult : {}>", self.line()))
    }
    fn str(&self, _rt: &mut Runtime) -> PyResult<String> {
        Ok(self.line())
    }
    fn get_attr(self: Rc<Self>, name: &str, _rt: &mut Runtime) -> PyResult<Option<Value>> {
        let floats = |v: Vec<f64>| Value::list(v.into_iter().map(Value::Float).collect());
        Ok(Some(match name {
            "loops" => Value::Int(self.loops as i64),
            "repeat" => Value::Int(self.repeat as i64),
            "all_runs" => floats(self.all_runs.clone()),
            "timings" => floats(self.timings()),
            "average" => Value::Float(self.average()),
            "stdev" => Value::Float(self.stdev()),
            "best" => Value::Float(self.best()),
            "worst" => Value::Float(self.worst()),
            "compile_time" => Value::Float(0.0),
            "_precision" => Value::Int(self.precision as i64),
            _ => return Ok(None),
        }))
    }
    fn dir(&self) -> Vec<String> {
        [
            "all_runs",
            "average",
            "best",
            "compile_time",
            "loops",
            "repeat",
            "stdev",
            "timings",
            "worst",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Options of `%timeit`.
pub struct TimeitOptions {
    pub number: u64,
    pub repeat: usize,
    pub precision: usize,
    pub quiet: bool,
    pub ret: bool,
}

/// Split `-n10 -r 3 -oq stmt` into options and the statement, the way IPython's getopt
/// does: flags may be clustered (`-oq`), a value may be attached (`-n10`) or follow as the
/// next word (`-n 10`), and `--` ends the options.
pub fn parse_timeit_args(line: &str) -> PyResult<(TimeitOptions, String)> {
    let mut o = TimeitOptions {
        number: 0,
        repeat: 7,
        precision: 3,
        quiet: false,
        ret: false,
    };
    let mut rest = line.trim_start();
    while let Some(opt) = rest.strip_prefix('-') {
        let end = opt.find(char::is_whitespace).unwrap_or(opt.len());
        let (word, mut after) = opt.split_at(end);
        if word == "-" {
            rest = after.trim_start();
            break;
        }
        // `-x` where x is not a letter starts the statement (`%timeit -1 + 2`).
        if !word.starts_with(|c: char| c.is_ascii_alphabetic()) {
            break;
        }
        let chars: Vec<char> = word.chars().collect();
        for (i, &flag) in chars.iter().enumerate() {
            if matches!(flag, 'n' | 'r' | 'p') {
                let attached: String = chars[i + 1..].iter().collect();
                let value = if attached.is_empty() {
                    let a = after.trim_start();
                    let e = a.find(char::is_whitespace).unwrap_or(a.len());
                    after = &a[e..];
                    a[..e].to_string()
                } else {
                    attached
                };
                if value.is_empty() {
                    return Err(PyErr::new(
                        "UsageError",
                        format!("option -{flag} requires argument"),
                    ));
                }
                let n = value.parse::<u64>().map_err(|_| {
                    PyErr::new("UsageError", format!("invalid value for -{flag}: {value}"))
                        .with_hint(format!("-{flag} takes a whole number, e.g. -{flag}10"))
                })?;
                match flag {
                    'n' => o.number = n,
                    'r' => o.repeat = n.max(1) as usize,
                    _ => o.precision = n.clamp(1, 17) as usize,
                }
                break;
            }
            match flag {
                'q' => o.quiet = true,
                'o' => o.ret = true,
                't' | 'c' => {}
                other => {
                    return Err(
                        PyErr::new("UsageError", format!("option -{other} not recognized"))
                            .with_hint("%timeit accepts -n<N> -r<R> -p<P> -q -o -t -c"),
                    )
                }
            }
        }
        rest = after.trim_start();
    }
    Ok((o, rest.to_string()))
}

/// What a long-running magic is doing right now. The kernel's progress display for a long
/// cell runs on another thread and shows it next to the elapsed time, so a slow `%timeit`
/// says how far it got; it is process-wide because only one cell runs at a time.
static ACTIVITY: Mutex<Option<String>> = Mutex::new(None);

/// The current activity note, if a magic set one (see [`ACTIVITY`]).
pub fn activity() -> Option<String> {
    ACTIVITY.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

fn set_activity(note: String) {
    *ACTIVITY.lock().unwrap_or_else(|e| e.into_inner()) = Some(note);
}

/// Clears the note however the timing ends (errors and interrupts included).
struct ActivityGuard;

impl Drop for ActivityGuard {
    fn drop(&mut self) {
        *ACTIVITY.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// Run `run_once` in IPython's calibrate-then-repeat pattern. `run_once(n)` executes the
/// statement n times and returns the elapsed seconds.
pub fn timeit(
    rt: &mut Runtime,
    opts: &TimeitOptions,
    run_once: &mut dyn FnMut(&mut Runtime, u64) -> PyResult<f64>,
) -> PyResult<TimeitResult> {
    let _shown = ActivityGuard;
    let mut number = opts.number;
    if number == 0 {
        for index in 0..10 {
            number = 10u64.pow(index);
            set_activity(format!(
                "%timeit: calibrating ({} loop{})",
                group_thousands(number),
                if number == 1 { "" } else { "s" }
            ));
            let t = run_once(rt, number)?;
            if t >= 0.2 {
                break;
            }
        }
    }
    let mut all_runs = crate::arrays::alloc::vec_with_capacity(opts.repeat, "a list")?;
    for i in 0..opts.repeat {
        set_activity(format!(
            "%timeit: run {} of {} ({} loop{} each)",
            i + 1,
            opts.repeat,
            group_thousands(number),
            if number == 1 { "" } else { "s" }
        ));
        all_runs.push(run_once(rt, number)?);
    }
    Ok(TimeitResult {
        loops: number,
        repeat: opts.repeat,
        all_runs,
        precision: opts.precision,
    })
}

/// Process CPU times (user, system) in seconds.
pub fn cpu_times() -> (f64, f64) {
    // /proc/self/stat fields 14 and 15 are utime and stime in clock ticks (100 Hz on Linux).
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return (0.0, 0.0);
    };
    let Some(after) = stat.rsplit_once(')').map(|(_, a)| a) else {
        return (0.0, 0.0);
    };
    let fields: Vec<&str> = after.split_whitespace().collect();
    let tick = 100.0;
    let get = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
            / tick
    };
    (get(11), get(12))
}

/// A stopwatch for `%time`.
pub struct Stopwatch {
    wall: Instant,
    cpu: (f64, f64),
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: cpu_times(),
        }
    }
    /// The two lines `%time` prints.
    pub fn report(&self) -> String {
        let wall = self.wall.elapsed().as_secs_f64();
        let (u1, s1) = cpu_times();
        let (u, s) = ((u1 - self.cpu.0).max(0.0), (s1 - self.cpu.1).max(0.0));
        format!(
            "CPU times: user {}, sys: {}, total: {}\nWall time: {}\n",
            format_time(u, 3),
            format_time(s, 3),
            format_time(u + s, 3),
            format_time(wall, 3)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_time_matches_ipython() {
        assert_eq!(format_time(1.5e-9, 3), "1.5 ns");
        assert_eq!(format_time(2.345e-6, 3), "2.35 \u{3bc}s");
        assert_eq!(format_time(1e-3, 3), "1 ms");
        assert_eq!(format_time(0.5, 3), "500 ms");
        assert_eq!(format_time(1.0, 3), "1 s");
        assert_eq!(format_time(0.0, 3), "0 ns");
        assert_eq!(format_time(0.0009996, 3), "1e+03 \u{3bc}s");
        assert_eq!(format_time(61.5, 3), "1min 1s");
    }

    #[test]
    fn result_line() {
        let r = TimeitResult {
            loops: 1_000_000,
            repeat: 7,
            all_runs: vec![0.763; 7],
            precision: 3,
        };
        assert_eq!(
            r.line(),
            "763 ns \u{b1} 0 ns per loop (mean \u{b1} std. dev. of 7 runs, 1,000,000 loops each)"
        );
    }
}

/// One `%timeit` result, kept for the timing chart.
#[derive(Clone, Debug)]
pub struct TimeitRecord {
    pub stmt: String,
    /// Seconds per loop, one entry per run.
    pub per_loop: Vec<f64>,
    pub loops: u64,
    pub cell: u32,
}

/// Every `%timeit` result of the session (in `Runtime::state`).
#[derive(Default)]
pub struct TimeitHistory {
    pub records: Vec<TimeitRecord>,
}
