//! Progress reporting for `nbcuda run`: one line per cell on stderr, plus a notebook-wide
//! bar that is redrawn in place on a terminal (plain lines when stderr is a file or pipe,
//! so CI logs stay readable).

use std::io::{IsTerminal, Write};
use std::time::Duration;

pub struct Progress {
    total: usize,
    done: usize,
    tty: bool,
}

/// How a cell ended, for its progress line.
pub enum CellStatus<'a> {
    Ok,
    Error(&'a str),
    Skipped,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        let p = Progress {
            total,
            done: 0,
            tty: std::io::stderr().is_terminal(),
        };
        if p.tty {
            eprint!("{}", p.bar());
        }
        p
    }

    /// `[####....] 3/12 cells`
    pub fn bar(&self) -> String {
        const WIDTH: usize = 20;
        let filled = (self.done * WIDTH).checked_div(self.total).unwrap_or(WIDTH);
        format!(
            "[{}{}] {}/{} cells",
            "#".repeat(filled),         // bounded: <= WIDTH
            ".".repeat(WIDTH - filled), // bounded: <= WIDTH
            self.done,
            self.total
        )
    }

    /// Report one finished code cell.
    pub fn cell(&mut self, index: usize, source: &str, status: CellStatus<'_>, took: Duration) {
        self.done += 1;
        let first = source.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let mut first: String = first.trim().chars().take(48).collect();
        if source.trim().lines().count() > 1 || first.len() < source.trim().len() {
            first.push('…');
        }
        let what = match status {
            CellStatus::Ok => format!("ok in {:.3} s", took.as_secs_f64()),
            CellStatus::Error(ename) => format!("{ename} after {:.3} s", took.as_secs_f64()),
            CellStatus::Skipped => "skipped".to_string(),
        };
        let mut err = std::io::stderr().lock();
        if self.tty {
            // Replace the bar with the cell line, then draw the bar again below it.
            let line = format!("cell {}: {what}  {first}", index + 1);
            let _ = write!(err, "\r\x1b[K{line}\n{}", self.bar());
        } else {
            let line = format!("cell {} ({}): {what}  {first}", index + 1, self.bar());
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    /// End the bar's line on a terminal.
    pub fn finish(&self) {
        if self.tty {
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_fills_proportionally() {
        let mut p = Progress::new(4);
        assert_eq!(p.bar(), "[....................] 0/4 cells");
        p.done = 1;
        assert_eq!(p.bar(), "[#####...............] 1/4 cells");
        p.done = 4;
        assert_eq!(p.bar(), "[####################] 4/4 cells");
        assert_eq!(Progress::new(0).bar(), "[####################] 0/0 cells");
    }
}
