//! The scaling chart: time per full sight sweep against agent count, log–log, Argus and the
//! lesson's loop, with the line linear scaling would follow. Hand-written SVG, no dependency.

use std::fmt::Write as _;

use crate::measure::show;

/// One measured size of one series (`argus` or `lesson`), as a section prints it:
/// `POINT\t<series>\t<agents>\t<seconds>`.
pub struct Point {
    pub series: String,
    pub agents: usize,
    pub seconds: f64,
}

impl Point {
    pub fn decode(line: &str) -> Option<Point> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 4 || f[0] != "POINT" {
            return None;
        }
        let (agents, seconds) = (f[2].parse().ok()?, f[3].parse::<f64>().ok()?);
        (seconds > 0.0).then(|| Point { series: f[1].into(), agents, seconds })
    }
}

const W: f64 = 680.0;
const H: f64 = 480.0;
const LEFT: f64 = 78.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 44.0;
const BOTTOM: f64 = 132.0;

fn agents_label(n: f64) -> String {
    if n >= 1e6 {
        format!("{}M", n / 1e6)
    } else if n >= 1e3 {
        format!("{}k", n / 1e3)
    } else {
        format!("{n}")
    }
}

/// Writes the chart for `points` to `path`.
pub fn write(path: &std::path::Path, points: &[Point]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, svg(points))
}

fn series<'a>(points: &'a [Point], name: &str) -> Vec<&'a Point> {
    let mut s: Vec<&Point> = points.iter().filter(|p| p.series == name).collect();
    s.sort_by_key(|p| p.agents);
    s
}

pub fn svg(points: &[Point]) -> String {
    let (argus, lesson) = (series(points, "argus"), series(points, "lesson"));
    let all = || points.iter();
    let nmin = all().map(|p| p.agents as f64).fold(f64::MAX, f64::min);
    let nmax = all().map(|p| p.agents as f64).fold(0.0, f64::max);
    let tmin = all().map(|p| p.seconds).fold(f64::MAX, f64::min);
    let tmax = all().map(|p| p.seconds).fold(0.0, f64::max);
    // Axes padded a little beyond the data; the linear line is clipped to the plot.
    let (x0, x1) = ((nmin / 1.5).log10(), (nmax * 1.5).log10());
    let (y0, y1) = ((tmin / 2.5).log10(), (tmax * 2.5).log10());
    let px = |n: f64| LEFT + (n.log10() - x0) / (x1 - x0) * (W - LEFT - RIGHT);
    let py = |t: f64| H - BOTTOM - (t.log10() - y0) / (y1 - y0) * (H - TOP - BOTTOM);
    let (plot_bottom, plot_right) = (H - BOTTOM, W - RIGHT);

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect width="{W}" height="{H}" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">Full sight sweep: time per step against agent count (log–log)</text>"#,
        W / 2.0
    );
    let _ = writeln!(
        s,
        r#"<defs><clipPath id="plot"><rect x="{LEFT}" y="{TOP}" width="{}" height="{}"/></clipPath></defs>"#,
        W - LEFT - RIGHT,
        H - TOP - BOTTOM
    );
    // Grid lines and labels at each power of ten (and 3× on the agent axis).
    for e in (x0.floor() as i32)..=(x1.ceil() as i32) {
        for m in [1.0, 3.0] {
            let n = m * 10f64.powi(e);
            if n.log10() < x0 || n.log10() > x1 {
                continue;
            }
            let x = px(n);
            let stroke = if m == 1.0 { "#cccccc" } else { "#eeeeee" };
            let _ = writeln!(s, r#"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{plot_bottom}" stroke="{stroke}"/>"#);
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"#,
                plot_bottom + 16.0,
                agents_label(n)
            );
        }
    }
    for e in (y0.floor() as i32)..=(y1.ceil() as i32) {
        for m in [1.0, 3.0] {
            let t = m * 10f64.powi(e);
            if t.log10() < y0 || t.log10() > y1 {
                continue;
            }
            let y = py(t);
            let stroke = if m == 1.0 { "#cccccc" } else { "#eeeeee" };
            let _ = writeln!(s, r#"<line x1="{LEFT}" y1="{y:.1}" x2="{plot_right}" y2="{y:.1}" stroke="{stroke}"/>"#);
            let label = show(std::time::Duration::from_secs_f64(t)).replace(".00", "").replace(".0", "");
            let _ = writeln!(s, r#"<text x="{}" y="{:.1}" text-anchor="end">{label}</text>"#, LEFT - 6.0, y + 4.0);
        }
    }
    let _ = writeln!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="#666666"/>"##,
        W - LEFT - RIGHT,
        H - TOP - BOTTOM
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">agents (at the town's density: 1 target per 10 agents, 1 box per 5)</text>"#,
        (LEFT + plot_right) / 2.0,
        plot_bottom + 34.0
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">time per step, one thread</text>"#,
        (TOP + plot_bottom) / 2.0,
        (TOP + plot_bottom) / 2.0
    );

    // Linear scaling: slope 1 through Argus's smallest size.
    if let Some(first) = argus.first() {
        let k = first.seconds / first.agents as f64;
        let (a, b) = (10f64.powf(x0), 10f64.powf(x1));
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888888" stroke-dasharray="6 4" clip-path="url(#plot)"/>"##,
            px(a),
            py(k * a),
            px(b),
            py(k * b)
        );
    }
    let mut draw = |pts: &[&Point], colour: &str, label_below: bool| {
        let path: Vec<String> =
            pts.iter().map(|p| format!("{:.1},{:.1}", px(p.agents as f64), py(p.seconds))).collect();
        let _ =
            writeln!(s, r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#, path.join(" "));
        for p in pts {
            let (x, y) = (px(p.agents as f64), py(p.seconds));
            let _ = writeln!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="{colour}"/>"#);
            let dy = if label_below { 18.0 } else { -9.0 };
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="{colour}">{}</text>"#,
                y + dy,
                show(std::time::Duration::from_secs_f64(p.seconds))
            );
        }
    };
    draw(&lesson, "#c0392b", false);
    draw(&argus, "#1f5fa8", true);

    // Legend below the plot, then what was not measured.
    let (lx, ly) = (LEFT, plot_bottom + 58.0);
    let mut key = |x: f64, colour: &str, dash: &str, text: &str| {
        let _ = writeln!(
            s,
            r#"<line x1="{x}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/><text x="{}" y="{}">{text}</text>"#,
            x + 24.0,
            x + 30.0,
            ly + 4.0
        );
    };
    key(lx, "#1f5fa8", "", "Argus");
    key(lx + 90.0, "#c0392b", "", "lesson-literal loop");
    key(lx + 250.0, "#888888", r#" stroke-dasharray="6 4""#, "linear scaling from Argus's smallest size");
    let mut notes = Vec::new();
    if let (Some(last), true) = (lesson.last(), lesson.len() >= 2) {
        let prev = lesson[lesson.len() - 2];
        let slope = (last.seconds / prev.seconds).ln() / (last.agents as f64 / prev.agents as f64).ln();
        if (last.agents as f64) < nmax {
            let guess = last.seconds * (nmax / last.agents as f64).powf(slope);
            notes.push(format!(
                "The lesson's loop was run up to {} agents only ({} a step there). It grows as n^{slope:.1}:",
                last.agents,
                show(std::time::Duration::from_secs_f64(last.seconds)),
            ));
            notes.push(format!(
                "{} agents would take about {} a step (extrapolated, not run).",
                nmax as usize,
                show(std::time::Duration::from_secs_f64(guess))
            ));
        }
    }
    notes.push("Best of several steps at each size, one thread; written by `cargo bench --bench report`.".into());
    for (i, note) in notes.iter().enumerate() {
        let _ = writeln!(s, r#"<text x="{LEFT}" y="{}" font-size="11">{note}</text>"#, ly + 26.0 + 16.0 * i as f64);
    }
    s.push_str("</svg>\n");
    s
}
