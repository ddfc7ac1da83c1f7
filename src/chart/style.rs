//! What every chart shares: its size, its fonts, its legend, its error, and
//! how much room a text takes.

use plotters::prelude::*;

/// Width and height of one chart, in pixels.
pub const SIZE: (u32, u32) = (960, 480);
/// Width of the legend column right of the plot, so it never covers data.
pub const LEGEND_WIDTH: u32 = 200;
/// Tick labels, axis names and legend entries: big enough to read in a
/// page at its natural size.
pub const LABEL_FONT: u32 = 15;
/// The values written on bars, and the words on empty slots.
pub const VALUE_FONT: u32 = 13;
/// The caption.
pub const CAPTION_FONT: u32 = 18;
/// First legend entry's middle, and the step to the next.
const LEGEND_TOP: i32 = 60;
const LEGEND_STEP: i32 = 24;

/// A chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the chart: {0}")]
pub struct ChartError(String);

/// Any plotters error as a [`ChartError`].
pub fn err(e: impl std::fmt::Display) -> ChartError {
    ChartError(e.to_string())
}

/// Escapes text for HTML and SVG.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// plotters' SVG writes a font this many times smaller than asked.
const SVG_FONT_SHRINK: f64 = 1.24;

/// The width in pixels that `text` takes at `font` (plotters' size), never
/// less than a common sans-serif face draws it: in ems of the font as
/// written, wide letters (capitals, `m`, `w`) at 0.95 (Arial's widest, `W`,
/// is 0.94), narrow ones and punctuation at 0.32 (Arial: 0.22 to 0.28), the
/// rest at 0.6 (Arial's digits: 0.556).
pub fn text_width(text: &str, font: u32) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            c if c.is_uppercase() || c == 'm' || c == 'w' => 0.95,
            ' ' | '.' | ',' | ':' | ';' | '\'' | '|' | 'i' | 'l' | 'j' | '!' => 0.32,
            _ => 0.6,
        })
        .sum();
    ems * font as f64 / SVG_FONT_SHRINK
}

/// The height in pixels a line of text takes at `font`, descenders and
/// accents included.
pub fn text_height(font: u32) -> f64 {
    1.25 * font as f64
}

/// `text` cut to fit `max_px` at `font`, ending in `…` where cut; empty
/// when not even one letter and the `…` fit.
pub fn fit_text(text: &str, max_px: f64, font: u32) -> String {
    if text_width(text, font) <= max_px {
        return text.to_string();
    }
    let mut cut = String::new();
    for c in text.chars() {
        let longer = format!("{cut}{c}…");
        if text_width(&longer, font) > max_px {
            break;
        }
        cut.push(c);
    }
    if cut.is_empty() {
        String::new()
    } else {
        format!("{cut}…")
    }
}

/// A speed on an axis, in the unit that fits: `50k`, `1.2M`, `3G`.
pub fn axis_speed(nodes_per_second: f64) -> String {
    let (value, unit) = match nodes_per_second {
        s if s >= 1e9 => (s / 1e9, "G"),
        s if s >= 1e6 => (s / 1e6, "M"),
        s if s >= 1e3 => (s / 1e3, "k"),
        s => (s, ""),
    };
    if value >= 10.0 || value == value.round() {
        format!("{value:.0}{unit}")
    } else {
        format!("{value:.1}{unit}")
    }
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
pub enum Mark {
    /// A filled square, for bars.
    Bar,
    /// A line this many pixels wide.
    Line(u32),
}

/// A legend in its own drawing area: a swatch and a name per entry, each
/// name cut to the column's width; entries past the chart's height are
/// summed up in a last line (`and 4 more`).
///
/// # Errors
/// If plotters cannot draw.
pub fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(String, RGBAColor, Mark)],
) -> Result<(), ChartError> {
    let room = ((SIZE.1 as i32 - LEGEND_TOP) / LEGEND_STEP).max(1) as usize;
    let shown = if entries.len() > room { room - 1 } else { entries.len() };
    let name_px = LEGEND_WIDTH as f64 - 34.0 - 4.0;
    for (i, (name, color, mark)) in entries.iter().take(shown).enumerate() {
        let y = LEGEND_TOP + LEGEND_STEP * i as i32;
        match *mark {
            Mark::Bar => {
                area.draw(&Rectangle::new([(10, y - 7), (26, y + 7)], color.filled())).map_err(err)?
            }
            Mark::Line(width) => {
                area.draw(&PathElement::new(vec![(8, y), (28, y)], color.stroke_width(width))).map_err(err)?
            }
        }
        let label = fit_text(name, name_px, LABEL_FONT);
        area.draw(&Text::new(label, (34, y - 8), ("sans-serif", LABEL_FONT))).map_err(err)?;
    }
    if shown < entries.len() {
        let y = LEGEND_TOP + LEGEND_STEP * shown as i32;
        let more = format!("and {} more", entries.len() - shown);
        area.draw(&Text::new(more, (34, y - 8), ("sans-serif", LABEL_FONT))).map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_measured_generously_and_cut_to_fit() {
        // "51.5 Mnps": 3 digits, 2 narrow, M wide, 3 lower case.
        let width = text_width("51.5 Mnps", 31);
        assert!((width - (6.0 * 15.0 + 2.0 * 8.0 + 23.75)).abs() < 1e-9, "{width}");
        assert_eq!(fit_text("kiwipete", 1000.0, 15), "kiwipete");
        let cut = fit_text("kiwipete", 40.0, 15);
        assert!(cut.ends_with('…') && text_width(&cut, 15) <= 40.0, "{cut}");
        assert_eq!(fit_text("kiwipete", 5.0, 15), "");
        assert_eq!(axis_speed(52_300.0), "52k");
        assert_eq!(axis_speed(1_500_000.0), "1.5M");
        assert_eq!(axis_speed(3e9), "3G");
    }
}
