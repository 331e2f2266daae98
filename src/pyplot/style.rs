//! Colours, line styles and markers as matplotlib spells them: `'r-'`, `'o'`, `'--'`,
//! `'C3'`, `'tab:orange'`, `'#1f77b4'`.

use plotters::style::RGBColor;

use crate::py::error::{PyErr, PyResult};

/// matplotlib's default property cycle (tab10), so a figure's series get the colours a
/// matplotlib user expects, in the same order.
pub const CYCLE: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineStyle {
    Solid,
    Dashed,
    Dotted,
    DashDot,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Point,
    Pixel,
    Circle,
    Square,
    TriangleUp,
    TriangleDown,
    TriangleLeft,
    TriangleRight,
    Cross,
    Plus,
    Star,
    Diamond,
}

/// What a format string such as `'g^--'` asks for; unset parts stay None.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Format {
    pub color: Option<RGBColor>,
    pub line: Option<LineStyle>,
    pub marker: Option<Marker>,
}

fn single_letter(c: char) -> Option<RGBColor> {
    Some(match c {
        'b' => RGBColor(0, 0, 255),
        'g' => RGBColor(0, 128, 0),
        'r' => RGBColor(255, 0, 0),
        'c' => RGBColor(0, 191, 191),
        'm' => RGBColor(191, 0, 191),
        'y' => RGBColor(191, 191, 0),
        'k' => RGBColor(0, 0, 0),
        'w' => RGBColor(255, 255, 255),
        _ => return None,
    })
}

fn marker_of(c: char) -> Option<Marker> {
    Some(match c {
        '.' => Marker::Point,
        ',' => Marker::Pixel,
        'o' => Marker::Circle,
        's' => Marker::Square,
        '^' => Marker::TriangleUp,
        'v' => Marker::TriangleDown,
        '<' => Marker::TriangleLeft,
        '>' => Marker::TriangleRight,
        'x' => Marker::Cross,
        '+' => Marker::Plus,
        '*' => Marker::Star,
        'd' | 'D' => Marker::Diamond,
        _ => return None,
    })
}

/// Parse a matplotlib format string (`[marker][line][color]` in any order).
pub fn parse_format(fmt: &str) -> PyResult<Format> {
    let mut out = Format::default();
    if let Some(c) = named_color(fmt) {
        if fmt.len() > 1 {
            out.color = Some(c);
            return Ok(out);
        }
    }
    let bad = |what: &str| {
        PyErr::value_error(format!(
            "'{fmt}' is not a valid format string ({what}); use e.g. 'r-', 'o', '--', 'g^', 'k:'"
        ))
    };
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let line = match two.as_str() {
            "--" => Some((LineStyle::Dashed, 2)),
            "-." => Some((LineStyle::DashDot, 2)),
            _ if c == '-' => Some((LineStyle::Solid, 1)),
            _ if c == ':' => Some((LineStyle::Dotted, 1)),
            _ => None,
        };
        if let Some((style, n)) = line {
            if out.line.is_some() {
                return Err(bad("two linestyle symbols"));
            }
            out.line = Some(style);
            i += n;
            continue;
        }
        if c == 'C' && i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
            out.color = Some(CYCLE[chars[i + 1].to_digit(10).unwrap_or(0) as usize]);
            i += 2;
            continue;
        }
        if let Some(m) = marker_of(c) {
            if out.marker.is_some() {
                return Err(bad("two marker symbols"));
            }
            out.marker = Some(m);
        } else if let Some(col) = single_letter(c) {
            if out.color.is_some() {
                return Err(bad("two color symbols"));
            }
            out.color = Some(col);
        } else {
            return Err(bad(&format!("unrecognized character '{c}'")));
        }
        i += 1;
    }
    Ok(out)
}

/// A named colour: single letters, `C0`–`C9`, `tab:*`, hex `#rrggbb`, and the CSS names
/// tutorials use.
pub fn named_color(name: &str) -> Option<RGBColor> {
    let n = name.trim().to_ascii_lowercase();
    if let Some(hex) = n.strip_prefix('#') {
        let hex = if hex.len() == 8 { &hex[..6] } else { hex };
        if hex.len() == 6 {
            let v = u32::from_str_radix(hex, 16).ok()?;
            return Some(RGBColor((v >> 16) as u8, (v >> 8) as u8, v as u8));
        }
        if hex.len() == 3 {
            let d: Vec<u8> = hex
                .chars()
                .map(|c| c.to_digit(16).map(|v| v as u8 * 17))
                .collect::<Option<_>>()?;
            return Some(RGBColor(d[0], d[1], d[2]));
        }
        return None;
    }
    let mut chars = n.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return single_letter(c);
    }
    if let Some(d) = n.strip_prefix('c').and_then(|d| d.parse::<usize>().ok()) {
        return Some(CYCLE[d % 10]);
    }
    let tab = [
        "blue", "orange", "green", "red", "purple", "brown", "pink", "gray", "olive", "cyan",
    ];
    if let Some(t) = n.strip_prefix("tab:") {
        let t = if t == "grey" { "gray" } else { t };
        return tab.iter().position(|x| *x == t).map(|i| CYCLE[i]);
    }
    Some(match n.as_str() {
        "blue" => RGBColor(0, 0, 255),
        "red" => RGBColor(255, 0, 0),
        "green" => RGBColor(0, 128, 0),
        "black" => RGBColor(0, 0, 0),
        "white" => RGBColor(255, 255, 255),
        "orange" => RGBColor(255, 165, 0),
        "purple" => RGBColor(128, 0, 128),
        "brown" => RGBColor(165, 42, 42),
        "pink" => RGBColor(255, 192, 203),
        "gray" | "grey" => RGBColor(128, 128, 128),
        "lightgray" | "lightgrey" => RGBColor(211, 211, 211),
        "darkgray" | "darkgrey" => RGBColor(169, 169, 169),
        "olive" => RGBColor(128, 128, 0),
        "cyan" | "aqua" => RGBColor(0, 255, 255),
        "magenta" | "fuchsia" => RGBColor(255, 0, 255),
        "yellow" => RGBColor(255, 255, 0),
        "navy" => RGBColor(0, 0, 128),
        "teal" => RGBColor(0, 128, 128),
        "lime" => RGBColor(0, 255, 0),
        "maroon" => RGBColor(128, 0, 0),
        "gold" => RGBColor(255, 215, 0),
        "crimson" => RGBColor(220, 20, 60),
        "darkblue" => RGBColor(0, 0, 139),
        "darkgreen" => RGBColor(0, 100, 0),
        "darkred" => RGBColor(139, 0, 0),
        "darkorange" => RGBColor(255, 140, 0),
        "skyblue" => RGBColor(135, 206, 235),
        "steelblue" => RGBColor(70, 130, 180),
        "indigo" => RGBColor(75, 0, 130),
        "violet" => RGBColor(238, 130, 238),
        "salmon" => RGBColor(250, 128, 114),
        "tomato" => RGBColor(255, 99, 71),
        "coral" => RGBColor(255, 127, 80),
        "silver" => RGBColor(192, 192, 192),
        _ => return None,
    })
}

pub fn parse_color(name: &str) -> PyResult<RGBColor> {
    named_color(name).ok_or_else(|| {
        PyErr::value_error(format!(
            "'{name}' is not a valid color value; use a name ('red'), a letter ('r'), 'C0'-'C9' or '#rrggbb'"
        ))
    })
}

pub fn parse_linestyle(s: &str) -> PyResult<LineStyle> {
    Ok(match s {
        "-" | "solid" => LineStyle::Solid,
        "--" | "dashed" => LineStyle::Dashed,
        ":" | "dotted" => LineStyle::Dotted,
        "-." | "dashdot" => LineStyle::DashDot,
        "" | " " | "None" | "none" => LineStyle::None,
        _ => {
            return Err(PyErr::value_error(format!(
                "'{s}' is not a valid value for ls; supported values are '-', '--', '-.', ':', 'None', ' ', '', 'solid', 'dashed', 'dashdot', 'dotted'"
            )))
        }
    })
}

pub fn parse_marker(s: &str) -> PyResult<Option<Marker>> {
    if matches!(s, "" | " " | "None" | "none") {
        return Ok(None);
    }
    let mut chars = s.chars();
    match (chars.next().and_then(marker_of), chars.next()) {
        (Some(m), None) => Ok(Some(m)),
        _ => Err(PyErr::value_error(format!(
            "Unrecognized marker style '{s}'; use one of . , o s ^ v < > x + * d"
        ))),
    }
}

/// The colour maps `imshow` accepts, sampled from plotters' maps where it has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmap {
    Viridis,
    Gray,
    Hot,
    Magma,
    Inferno,
    Plasma,
    Coolwarm,
}

pub fn parse_cmap(name: &str) -> PyResult<Cmap> {
    Ok(match name {
        "viridis" => Cmap::Viridis,
        "gray" | "grey" | "Greys_r" => Cmap::Gray,
        "hot" => Cmap::Hot,
        "magma" => Cmap::Magma,
        "inferno" => Cmap::Inferno,
        "plasma" => Cmap::Plasma,
        "coolwarm" | "bwr" | "RdBu_r" => Cmap::Coolwarm,
        _ => {
            return Err(PyErr::value_error(format!(
                "'{name}' is not a valid value for cmap; supported values are 'viridis', 'gray', 'hot', 'magma', 'inferno', 'plasma', 'coolwarm'"
            )))
        }
    })
}

impl Cmap {
    /// Colour for `t` in [0, 1].
    pub fn at(self, t: f64) -> RGBColor {
        use plotters::style::colors::colormaps::{ColorMap, ViridisRGB};
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        let lerp = |stops: &[(f64, [u8; 3])]| {
            let i = stops
                .iter()
                .rposition(|s| s.0 <= t)
                .unwrap_or(0)
                .min(stops.len() - 2);
            let (t0, a) = stops[i];
            let (t1, b) = stops[i + 1];
            let f = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
            let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * f).round() as u8;
            RGBColor(mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2]))
        };
        match self {
            Cmap::Viridis => ViridisRGB.get_color(t as f32),
            Cmap::Gray => {
                let v = (t * 255.0).round() as u8;
                RGBColor(v, v, v)
            }
            Cmap::Hot => lerp(&[
                (0.0, [10, 0, 0]),
                (0.365, [255, 0, 0]),
                (0.746, [255, 255, 0]),
                (1.0, [255, 255, 255]),
            ]),
            Cmap::Magma => lerp(&[
                (0.0, [0, 0, 4]),
                (0.25, [81, 18, 124]),
                (0.5, [183, 55, 121]),
                (0.75, [252, 137, 97]),
                (1.0, [252, 253, 191]),
            ]),
            Cmap::Inferno => lerp(&[
                (0.0, [0, 0, 4]),
                (0.25, [87, 16, 110]),
                (0.5, [188, 55, 84]),
                (0.75, [249, 142, 9]),
                (1.0, [252, 255, 164]),
            ]),
            Cmap::Plasma => lerp(&[
                (0.0, [13, 8, 135]),
                (0.25, [126, 3, 168]),
                (0.5, [204, 71, 120]),
                (0.75, [248, 149, 64]),
                (1.0, [240, 249, 33]),
            ]),
            Cmap::Coolwarm => lerp(&[
                (0.0, [59, 76, 192]),
                (0.5, [221, 221, 221]),
                (1.0, [180, 4, 38]),
            ]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_strings() {
        let f = parse_format("r--").unwrap();
        assert_eq!(f.color, Some(RGBColor(255, 0, 0)));
        assert_eq!(f.line, Some(LineStyle::Dashed));
        assert_eq!(f.marker, None);
        let f = parse_format("o").unwrap();
        assert_eq!((f.marker, f.line), (Some(Marker::Circle), None));
        let f = parse_format("g^").unwrap();
        assert_eq!(f.marker, Some(Marker::TriangleUp));
        assert_eq!(parse_format("k:").unwrap().line, Some(LineStyle::Dotted));
        assert_eq!(parse_format("C1-").unwrap().color, Some(CYCLE[1]));
        assert!(parse_format("rq").is_err());
        assert!(parse_format("r-g").is_err());
    }

    #[test]
    fn colors() {
        assert_eq!(named_color("#ff8000"), Some(RGBColor(255, 128, 0)));
        assert_eq!(named_color("tab:orange"), Some(CYCLE[1]));
        assert_eq!(named_color("C12"), Some(CYCLE[2]));
        assert!(parse_color("notacolor").is_err());
    }
}
