//! `time`'s calendar half: `struct_time`, `gmtime`, `localtime`, `mktime`, `strftime`,
//! `asctime`, `ctime` and the zone constants (`timezone`, `altzone`, `daylight`, `tzname`).
//!
//! Local time is the process's zone as chrono reads it (`TZ`, `/etc/localtime`). Known
//! differences from CPython: `tm_isdst` is always 0 (chrono gives offsets, not whether
//! daylight saving applies), a zone's name is `UTC` or its offset (`+0100`) rather than an
//! abbreviation such as `CET`, and `strftime` knows the C locale's codes only.

use chrono::{Offset, TimeZone};

use crate::interp::struct_seq;
use crate::py::error::{PyErr, PyResult};
use crate::py::runtime::Runtime;
use crate::py::signature::Style::Clinic;
use crate::py::value::{Module, Value};

const FIELDS: &[&str] = &[
    "tm_year",
    "tm_mon",
    "tm_mday",
    "tm_hour",
    "tm_min",
    "tm_sec",
    "tm_wday",
    "tm_yday",
    "tm_isdst",
    "tm_zone",
    "tm_gmtoff",
];
const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
/// CPython refuses timestamps whose year leaves a C `int`; this bound keeps every year
/// well inside it.
const MAX_SECONDS: f64 = 1e15;

/// A broken-down time (C's `struct tm`, Python's numbering: months 1-12, Monday = 0).
struct Tm {
    year: i64,
    mon: i64,
    mday: i64,
    hour: i64,
    min: i64,
    sec: i64,
    wday: i64,
    yday: i64,
    zone: String,
    gmtoff: i64,
}

/// (year, month, day) of a day count from 1970-01-01 (the proleptic Gregorian calendar).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The day count from 1970-01-01 of a civil date (inverse of [`civil`]; months may
/// overflow into later years, as C's `mktime` normalises them).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let (y, m) = (y + (m - 1).div_euclid(12), (m - 1).rem_euclid(12) + 1);
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn broken_down(secs: i64, gmtoff: i64, zone: String) -> Tm {
    let t = secs + gmtoff;
    let days = t.div_euclid(86_400);
    let rem = t.rem_euclid(86_400);
    let (year, mon, mday) = civil(days);
    Tm {
        year,
        mon,
        mday,
        hour: rem / 3600,
        min: rem % 3600 / 60,
        sec: rem % 60,
        // 1970-01-01 was a Thursday.
        wday: (days + 3).rem_euclid(7),
        yday: days - days_from_civil(year, 1, 1) + 1,
        zone,
        gmtoff,
    }
}

/// The local zone's offset east of UTC at `secs`, in seconds.
fn local_offset(secs: i64) -> i64 {
    chrono::Local
        .timestamp_opt(secs, 0)
        .earliest()
        .map_or(0, |t| i64::from(t.offset().fix().local_minus_utc()))
}

fn zone_name(gmtoff: i64) -> String {
    if gmtoff == 0 {
        return "UTC".into();
    }
    let a = gmtoff.abs();
    format!(
        "{}{:02}{:02}",
        if gmtoff < 0 { '-' } else { '+' },
        a / 3600,
        a % 3600 / 60
    )
}

fn to_value(t: Tm) -> Value {
    let ints = [
        t.year, t.mon, t.mday, t.hour, t.min, t.sec, t.wday, t.yday, 0,
    ];
    let mut values: Vec<Value> = ints.iter().map(|&i| Value::Int(i)).collect();
    values.push(Value::str(&t.zone));
    values.push(Value::Int(t.gmtoff));
    struct_seq::with_attrs("time.struct_time", FIELDS, values, 9)
}

/// Seconds from an optional argument (None: now), rounded down as CPython's conversion does.
fn seconds(v: Option<&Value>) -> PyResult<i64> {
    let f = match v {
        None | Some(Value::None) => now(),
        Some(Value::Int(i)) => return Ok(*i),
        Some(v @ (Value::Float(_) | Value::Bool(_) | Value::Scalar(_))) => v.as_f64()?,
        Some(v) => {
            return Err(PyErr::type_error(format!(
                "'{}' object cannot be interpreted as an integer",
                v.type_name()
            )))
        }
    };
    if f.is_nan() {
        return Err(PyErr::value_error("Invalid value NaN (not a number)"));
    }
    if f.abs() > MAX_SECONDS {
        return Err(PyErr::new(
            "OverflowError",
            "timestamp out of range for platform time_t",
        ));
    }
    Ok(f.floor() as i64)
}

fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

fn localtime(secs: i64) -> Tm {
    let off = local_offset(secs);
    broken_down(secs, off, zone_name(off))
}

/// A struct_time or 9-sequence argument (None: the local time now).
/// `func` names the caller in the error for a sequence of the wrong length (None: the
/// `struct_time` constructor's own message).
fn tm_arg(rt: &mut Runtime, v: Option<&Value>, func: Option<&str>) -> PyResult<Tm> {
    let items = match v {
        None | Some(Value::None) => return Ok(localtime(seconds(None)?)),
        Some(v) => match struct_seq::items_of(v) {
            Some(items) => items,
            None => match v {
                Value::Tuple(_) | Value::List(_) => rt.iterate(v)?,
                _ => return Err(PyErr::type_error("Tuple or struct_time argument required")),
            },
        },
    };
    if items.len() != 9 {
        return Err(PyErr::type_error(match func {
            Some(f) => format!("{f}(): illegal time tuple argument"),
            None => format!(
                "time.struct_time() takes a 9-sequence ({}-sequence given)",
                items.len()
            ),
        }));
    }
    let mut f = [0i64; 9];
    for (slot, v) in f.iter_mut().zip(&items) {
        *slot = match v {
            Value::Int(i) => *i,
            Value::Bool(b) => *b as i64,
            other => {
                return Err(PyErr::type_error(format!(
                    "'{}' object cannot be interpreted as an integer",
                    other.type_name()
                )))
            }
        };
    }
    if !(1..=12).contains(&f[1]) && f[1] != 0 {
        return Err(PyErr::value_error("month out of range"));
    }
    if !(0..=31).contains(&f[2]) {
        return Err(PyErr::value_error("day of month out of range"));
    }
    let off = local_offset(0);
    Ok(Tm {
        year: f[0],
        mon: f[1].max(1),
        mday: f[2].max(1),
        hour: f[3],
        min: f[4],
        sec: f[5],
        wday: f[6].rem_euclid(7),
        yday: f[7].max(1),
        zone: zone_name(off),
        gmtoff: off,
    })
}

/// C's `strftime` in the C locale.
fn strftime(fmt: &str, t: &Tm) -> String {
    let mut out = String::new();
    let mut chars = fmt.chars();
    let hour12 = if t.hour % 12 == 0 { 12 } else { t.hour % 12 };
    // Week numbers count the weeks whose first day (Sunday for %U, Monday for %W) is in
    // the year so far.
    let yday0 = t.yday - 1;
    let sunday_based = (yday0 + 7 - (t.wday + 1) % 7) / 7;
    let monday_based = (yday0 + 7 - t.wday) / 7;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(code) = chars.next() else {
            out.push('%');
            break;
        };
        let piece = match code {
            'a' => DAYS[t.wday as usize][..3].to_string(),
            'A' => DAYS[t.wday as usize].to_string(),
            'b' | 'h' => MONTHS[(t.mon - 1) as usize][..3].to_string(),
            'B' => MONTHS[(t.mon - 1) as usize].to_string(),
            'c' => strftime("%a %b %e %H:%M:%S %Y", t),
            'C' => format!("{:02}", t.year.div_euclid(100)),
            'd' => format!("{:02}", t.mday),
            'D' | 'x' => strftime("%m/%d/%y", t),
            'e' => format!("{:2}", t.mday),
            'F' => strftime("%Y-%m-%d", t),
            'H' => format!("{:02}", t.hour),
            'I' => format!("{hour12:02}"),
            'j' => format!("{:03}", t.yday),
            'm' => format!("{:02}", t.mon),
            'M' => format!("{:02}", t.min),
            'n' => "\n".into(),
            'p' => (if t.hour < 12 { "AM" } else { "PM" }).into(),
            'r' => strftime("%I:%M:%S %p", t),
            'R' => strftime("%H:%M", t),
            'S' => format!("{:02}", t.sec),
            't' => "\t".into(),
            'T' | 'X' => strftime("%H:%M:%S", t),
            'u' => format!("{}", t.wday + 1),
            'U' => format!("{sunday_based:02}"),
            'w' => format!("{}", (t.wday + 1) % 7),
            'W' => format!("{monday_based:02}"),
            'y' => format!("{:02}", t.year.rem_euclid(100)),
            'Y' => format!("{}", t.year),
            'z' => {
                let a = t.gmtoff.abs();
                format!(
                    "{}{:02}{:02}",
                    if t.gmtoff < 0 { '-' } else { '+' },
                    a / 3600,
                    a % 3600 / 60
                )
            }
            'Z' => t.zone.clone(),
            '%' => "%".into(),
            // glibc copies an unknown conversion as written.
            other => format!("%{other}"),
        };
        out.push_str(&piece);
    }
    out
}

/// Register the calendar functions and constants on the `time` module.
pub fn register(m: &Module) {
    m.def(
        Clinic,
        "gmtime",
        "seconds=None, /",
        "The UTC struct_time of a timestamp (default: now).",
        |_, b| Ok(to_value(broken_down(seconds(b.get(0))?, 0, "GMT".into()))),
    );
    m.def(
        Clinic,
        "localtime",
        "seconds=None, /",
        "The local struct_time of a timestamp (default: now).",
        |_, b| Ok(to_value(localtime(seconds(b.get(0))?))),
    );
    m.def(
        Clinic,
        "mktime",
        "t, /",
        "The timestamp of a local struct_time or 9-tuple.",
        |rt, b| {
            let t = tm_arg(rt, b.get(0), Some("mktime"))?;
            let naive = days_from_civil(t.year, t.mon, t.mday) * 86_400
                + t.hour * 3600
                + t.min * 60
                + t.sec;
            let off = local_offset(naive - local_offset(naive));
            Ok(Value::Float((naive - off) as f64))
        },
    );
    m.def(
        Clinic,
        "strftime",
        "format, t=None, /",
        "Format a struct_time (default: the local time now) with C's strftime codes.",
        |rt, b| {
            let fmt = match b.get(0) {
                Some(Value::Str(s)) => s.to_string(),
                other => {
                    return Err(PyErr::type_error(format!(
                        "strftime() argument 1 must be str, not {}",
                        other.map_or("None".into(), |v| v.type_name())
                    )))
                }
            };
            let t = tm_arg(rt, b.get(1), Some("strftime"))?;
            Ok(Value::str(&strftime(&fmt, &t)))
        },
    );
    m.def(
        Clinic,
        "asctime",
        "t=None, /",
        "A struct_time as 'Thu Jan  1 00:00:00 1970'.",
        |rt, b| {
            let t = tm_arg(rt, b.get(0), Some("asctime"))?;
            Ok(Value::str(&strftime("%a %b %e %H:%M:%S %Y", &t)))
        },
    );
    m.def(
        Clinic,
        "ctime",
        "seconds=None, /",
        "A timestamp in local time as 'Thu Jan  1 00:00:00 1970'.",
        |_, b| {
            Ok(Value::str(&strftime(
                "%a %b %e %H:%M:%S %Y",
                &localtime(seconds(b.get(0))?),
            )))
        },
    );
    m.def(
        Clinic,
        "struct_time",
        "sequence, /",
        "A time as a named 9-sequence.",
        |rt, b| {
            let t = tm_arg(rt, b.get(0), None)?;
            Ok(to_value(t))
        },
    );
    let off = local_offset(seconds(None).unwrap_or(0));
    m.set("timezone", Value::Int(-off));
    m.set("altzone", Value::Int(-off));
    m.set("daylight", Value::Int(0));
    m.set(
        "tzname",
        Value::tuple(vec![
            Value::str(&zone_name(off)),
            Value::str(&zone_name(off)),
        ]),
    );
}
