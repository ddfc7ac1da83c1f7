//! Grouped bar charts whose written values never overlap one another nor
//! touch an axis, and whose empty slots (a skipped engine) are marked.
//!
//! Every bar owns a slot of the same width, and every text a bar carries
//! (its value, or the word on an empty slot) is kept inside its own slot:
//! written level above the bar where the widest text fits the slot, turned
//! upright above it where the text's height does, and left to the table
//! where neither does (the caption then says so). The axis is made tall
//! enough for the texts above the tallest bar, so none reaches the top.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::{
    draw_legend, err, fit_text, text_height, text_width, ChartError, Mark, CAPTION_FONT, LABEL_FONT, SIZE,
    VALUE_FONT,
};

/// Bars whose values differ this much or more are drawn on a log axis, so
/// that the slow engine's bar is not a sliver.
pub const LOG_AXIS_RATIO: f64 = 10.0;
/// Units per slot on the x axis: the bar takes all but the last, its
/// error bar stands on the middle one.
const BAR_UNITS: u32 = 5;
/// Units between two groups, beyond their slots.
const GROUP_GAP: u32 = 3;
/// Pixels between a text and what it stands on, and between two texts.
const GAP: f64 = 4.0;
/// An empty slot's box is this part of the plot's height.
const EMPTY_BOX: f64 = 0.25;

/// One bar: the value drawn and the range around it (equal to it when
/// there is no spread).
#[derive(Clone, Copy, Debug)]
pub struct Bar {
    /// The bar's height.
    pub value: f64,
    /// The error bar's low end.
    pub low: f64,
    /// The error bar's high end.
    pub high: f64,
}

/// What a slot holds: a bar and the text written on it, or a word saying
/// why it is empty (`skipped`).
#[derive(Clone, Debug)]
pub enum Slot {
    /// A bar, its text, and the legend entry it is coloured by.
    Bar(Bar, String, usize),
    /// An empty slot: the word on it, and the legend entry it belongs to.
    Empty(&'static str, usize),
}

/// A group of slots under one name on the x axis.
#[derive(Clone, Debug)]
pub struct Group {
    /// The name under the group (cut to fit it).
    pub name: String,
    /// Its slots, left to right.
    pub slots: Vec<Slot>,
}

/// A bar chart to draw.
#[derive(Clone, Debug)]
pub struct BarChart {
    /// The caption before its parenthesis.
    pub title: String,
    /// What the caption's parenthesis says (`log scale` and where the
    /// values went are added).
    pub notes: Vec<String>,
    /// The y axis's name (`(log scale)` is added).
    pub y_desc: String,
    /// The groups, left to right.
    pub groups: Vec<Group>,
    /// The legend's entries.
    pub legend: Vec<String>,
}

/// How the texts of the bars are written.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Placement {
    /// Level, above the bar.
    Level,
    /// Upright (reading upwards), above the bar.
    Upright,
    /// Not on the chart: the table holds the values.
    Table,
}

impl Placement {
    /// The way that keeps every text of `texts` inside a slot `slot_px`
    /// wide, with room above the bars in a plot `plot_h` high.
    fn choose(texts: &[&str], slot_px: f64, plot_h: f64) -> Placement {
        let widest = texts.iter().map(|t| text_width(t, VALUE_FONT)).fold(0.0, f64::max);
        let high = text_height(VALUE_FONT);
        // Half a gap on each side keeps two neighbours a gap apart.
        if widest + GAP <= slot_px && high + GAP <= plot_h * 0.4 {
            Placement::Level
        } else if high + GAP <= slot_px && widest + GAP <= plot_h * 0.4 {
            Placement::Upright
        } else {
            Placement::Table
        }
    }

    /// Pixels a text takes above what it stands on, the gap included.
    fn room(self, texts: &[&str]) -> f64 {
        match self {
            Placement::Level => text_height(VALUE_FONT) + GAP,
            Placement::Upright => texts.iter().map(|t| text_width(t, VALUE_FONT)).fold(0.0, f64::max) + GAP,
            Placement::Table => 0.0,
        }
    }
}

/// Where the slots go: each group's first unit, and the axis's width.
fn layout(groups: &[Group]) -> (Vec<u32>, u32) {
    let mut starts = Vec::new();
    let mut at = 0;
    for group in groups {
        starts.push(at);
        at += group.slots.len() as u32 * BAR_UNITS + GROUP_GAP;
    }
    (starts, at.max(1))
}

/// The plot's pixel ranges (x, y) for a chart of `SIZE` with a legend, as
/// [`bar_chart`] lays it out: drawn once on scratch, since they do not
/// depend on the axis ranges.
fn plot_pixels() -> Result<(std::ops::Range<i32>, std::ops::Range<i32>), ChartError> {
    let mut scratch = String::new();
    let root = SVGBackend::with_string(&mut scratch, SIZE).into_drawing_area();
    let (plot, _) = root.split_horizontally(SIZE.0 - super::style::LEGEND_WIDTH);
    let chart = builder(&plot, "x").build_cartesian_2d(0u32..1, 0f64..1.0).map_err(err)?;
    Ok(chart.plotting_area().get_pixel_range())
}

fn builder<'a, 'b, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(plot);
    builder
        .caption(caption, ("sans-serif", CAPTION_FONT))
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(80);
    builder
}

/// The y axis: log or not, and its bottom and top (log10 of the values on
/// a log axis), tall enough for `room` pixels above every bar in a plot
/// `plot_h` high.
fn y_axis(bars: &[Bar], room: f64, plot_h: f64) -> (bool, f64, f64) {
    let range = |values: &mut dyn Iterator<Item = f64>| {
        values.filter(|v| *v > 0.0).fold((f64::INFINITY, 1.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    // The bars decide the axis; the error bars only widen it.
    let (slowest, fastest) = range(&mut bars.iter().map(|b| b.value));
    let log = fastest / slowest >= LOG_AXIS_RATIO;
    let (lowest, highest) = range(&mut bars.iter().flat_map(|b| [b.low, b.high, b.value]));
    let y = |v: f64| if log { v.max(1.0).log10() } else { v };
    let (bottom, mut top) = if log { (y(lowest) - 0.3, y(highest) + 0.3) } else { (0.0, highest * 1.15) };
    // The top of each bar's error bar must leave `room` (and two pixels of
    // rounding) below the plot's top.
    let free = 1.0 - (room + 2.0) / plot_h;
    for bar in bars {
        let tip = y(bar.high.max(bar.value)).max(bottom);
        top = top.max(bottom + (tip - bottom) / free);
    }
    (log, bottom, top)
}

/// Draws `chart` as SVG.
///
/// # Errors
/// If plotters cannot draw (never expected for an SVG string).
pub fn bar_chart(chart: &BarChart) -> Result<String, ChartError> {
    let (starts, width) = layout(&chart.groups);
    let (xs, ys) = plot_pixels()?;
    let plot_h = (ys.end - ys.start) as f64;
    let slot_px = BAR_UNITS as f64 * (xs.end - xs.start) as f64 / width as f64;
    let texts: Vec<&str> = chart
        .groups
        .iter()
        .flat_map(|g| &g.slots)
        .map(|s| match s {
            Slot::Bar(_, text, _) => text.as_str(),
            Slot::Empty(word, _) => word,
        })
        .collect();
    let placement = Placement::choose(&texts, slot_px, plot_h);
    let bars: Vec<Bar> = chart
        .groups
        .iter()
        .flat_map(|g| &g.slots)
        .filter_map(|s| if let Slot::Bar(bar, _, _) = s { Some(*bar) } else { None })
        .collect();
    let (log, bottom, top) = y_axis(&bars, placement.room(&texts), plot_h);
    let mut notes = chart.notes.clone();
    if log {
        notes.push("log scale".into());
    }
    if placement == Placement::Table {
        notes.push("values in the table".into());
    }
    let caption = if notes.is_empty() {
        chart.title.clone()
    } else {
        format!("{} ({})", chart.title, notes.join("; "))
    };
    let y_desc = if log { format!("{} (log scale)", chart.y_desc) } else { chart.y_desc.clone() };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(SIZE.0 - super::style::LEGEND_WIDTH);
        let mut context =
            builder(&plot, &caption).build_cartesian_2d(0u32..width, bottom..top).map_err(err)?;
        context
            .configure_mesh()
            .disable_x_mesh()
            // Group names are drawn under their bars, not as ticks.
            .x_labels(1)
            .x_label_formatter(&|_| String::new())
            .label_style(("sans-serif", LABEL_FONT))
            .axis_desc_style(("sans-serif", LABEL_FONT + 1))
            .y_desc(y_desc)
            .y_label_formatter(&|v| super::style::axis_speed(if log { 10f64.powf(*v) } else { *v }))
            .light_line_style(BLACK.mix(0.04))
            .draw()
            .map_err(err)?;
        let y = |v: f64| if log { v.max(1.0).log10() } else { v };
        let axis_px = context.backend_coord(&(0, bottom)).1;
        for (group, start) in chart.groups.iter().zip(&starts) {
            for (i, slot) in group.slots.iter().enumerate() {
                let x = start + 2 + i as u32 * BAR_UNITS;
                let middle = x + (BAR_UNITS - 1) / 2;
                let mid_px = context.backend_coord(&(middle, bottom)).0;
                let (text, stands_on) = match slot {
                    Slot::Bar(bar, text, series) => {
                        draw_bar(&mut context, *bar, x, bottom, &y, *series)?;
                        (text.as_str(), context.backend_coord(&(middle, y(bar.high.max(bar.value)))).1)
                    }
                    Slot::Empty(word, _) => {
                        let left = context.backend_coord(&(x, bottom)).0;
                        let right = context.backend_coord(&(x + BAR_UNITS - 1, bottom)).0;
                        let box_top = axis_px - (plot_h * EMPTY_BOX) as i32;
                        draw_empty(&root, (left, box_top), (right, axis_px))?;
                        (*word, box_top)
                    }
                };
                draw_text(&root, text, placement, (mid_px, stands_on))?;
            }
            draw_group_name(&root, &context, group, *start, bottom, axis_px)?;
        }
        let entries: Vec<_> = chart
            .legend
            .iter()
            .enumerate()
            .map(|(i, name)| (name.clone(), Palette99::pick(i).to_rgba(), Mark::Bar))
            .collect();
        draw_legend(&legend, &entries)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

type Context<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordu32, plotters::coord::types::RangedCoordf64>,
>;

/// A bar from the axis up to its value, and its error bar where it has a
/// spread.
fn draw_bar<DB: DrawingBackend>(
    context: &mut Context<'_, DB>,
    bar: Bar,
    x: u32,
    bottom: f64,
    y: &dyn Fn(f64) -> f64,
    series: usize,
) -> Result<(), ChartError> {
    let color = Palette99::pick(series).to_rgba();
    let rectangle = Rectangle::new([(x, bottom), (x + BAR_UNITS - 1, y(bar.value))], color.filled());
    context.draw_series([rectangle]).map_err(err)?;
    if bar.low == bar.high {
        return Ok(());
    }
    let middle = x + (BAR_UNITS - 1) / 2;
    let whisker = vec![(middle, y(bar.low)), (middle, y(bar.high))];
    context.draw_series([PathElement::new(whisker, BLACK.stroke_width(2))]).map_err(err)?;
    for end in [bar.low, bar.high] {
        let cap = vec![(middle - 1, y(end)), (middle + 1, y(end))];
        context.draw_series([PathElement::new(cap, BLACK.stroke_width(1))]).map_err(err)?;
    }
    Ok(())
}

/// An empty slot: a grey outline from `(left, top)` to `(right, bottom)`,
/// hatched.
fn draw_empty<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    (left, top): (i32, i32),
    (right, bottom): (i32, i32),
) -> Result<(), ChartError> {
    let grey = RGBColor(120, 120, 120);
    root.draw(&Rectangle::new([(left, top), (right, bottom - 1)], grey.stroke_width(1))).map_err(err)?;
    let (w, h) = (right - left, bottom - 1 - top);
    // Lines of slope -1, every 8 pixels, each cut at the box's edges.
    for c in (8..w + h).step_by(8) {
        let start = if c <= w { (left + c, bottom - 1) } else { (right, bottom - 1 - (c - w)) };
        let end = if c <= h { (left, bottom - 1 - c) } else { (left + (c - h), top) };
        root.draw(&PathElement::new(vec![start, end], grey.mix(0.6).stroke_width(1))).map_err(err)?;
    }
    Ok(())
}

/// A bar's text, centred on `x`, just above `stands_on` (pixels).
fn draw_text<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    text: &str,
    placement: Placement,
    (x, stands_on): (i32, i32),
) -> Result<(), ChartError> {
    let at = (x, stands_on - GAP as i32);
    let style = TextStyle::from(("sans-serif", VALUE_FONT));
    let style = match placement {
        Placement::Level => style.pos(Pos::new(HPos::Center, VPos::Bottom)),
        Placement::Upright => {
            style.pos(Pos::new(HPos::Left, VPos::Center)).transform(FontTransform::Rotate270)
        }
        Placement::Table => return Ok(()),
    };
    root.draw(&Text::new(text.to_string(), at, style)).map_err(err)
}

/// A group's name under the axis, centred on its bars and cut to its
/// width (left out where not a letter fits).
fn draw_group_name<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    context: &Context<'_, DB>,
    group: &Group,
    start: u32,
    bottom: f64,
    axis_px: i32,
) -> Result<(), ChartError> {
    let slots = group.slots.len() as u32;
    let left = context.backend_coord(&(start, bottom)).0;
    let right = context.backend_coord(&(start + slots * BAR_UNITS + GROUP_GAP, bottom)).0;
    let name = fit_text(&group.name, (right - left) as f64 - 2.0 * GAP, LABEL_FONT);
    if name.is_empty() {
        return Ok(());
    }
    // The middle of the bars: from the first bar's left to the last's right.
    let first = context.backend_coord(&(start + 2, bottom)).0;
    let last = context.backend_coord(&(start + 2 + slots * BAR_UNITS - 1, bottom)).0;
    let style = TextStyle::from(("sans-serif", LABEL_FONT)).pos(Pos::new(HPos::Center, VPos::Top));
    root.draw(&Text::new(name, ((first + last) / 2, axis_px + 2 * GAP as i32), style)).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_go_level_then_upright_then_to_the_table() {
        let texts = ["51.5 Mnps", "skipped"];
        assert_eq!(Placement::choose(&texts, 100.0, 360.0), Placement::Level);
        assert_eq!(Placement::choose(&texts, 30.0, 360.0), Placement::Upright);
        assert_eq!(Placement::choose(&texts, 10.0, 360.0), Placement::Table);
        assert_eq!(Placement::choose(&texts, 30.0, 60.0), Placement::Table);
        // Room above the tallest bar grows the axis.
        let bar = Bar { value: 100.0, low: 90.0, high: 110.0 };
        let (log, bottom, top) = y_axis(&[bar], 100.0, 300.0);
        assert!(!log && bottom == 0.0);
        assert!(110.0 / top <= 1.0 - 102.0 / 300.0 + 1e-9, "{top}");
        // Far apart: log.
        let slow = Bar { value: 1.0e3, low: 1.0e3, high: 1.0e3 };
        assert!(y_axis(&[bar, slow], 20.0, 300.0).0);
    }
}
