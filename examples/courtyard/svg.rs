//! Frames to SVG. Everything in the courtyard itself is the library's debug-draw buffer (lines
//! and points, projected top-down onto X→right, Z→down); only the danger heat map underneath,
//! the cover / flank markers, the labels and the legend come from elsewhere.

use std::fmt::Write as _;

use argus_core::debug_draw::colors;
use argus_core::{DebugDraw, PointStyle, Vec3};

/// Pixels per metre, and the space around and above each frame.
const SCALE: f32 = 15.0;
const PAD: f32 = 12.0;
const CAPTION: f32 = 40.0;
const COLUMNS: usize = 3;
const BACKGROUND: &str = "#15171d";

/// A danger heat map: row-major values over a grid of square cells starting at `origin` (X, Z).
pub struct Heat {
    pub origin: (f32, f32),
    pub cell: f32,
    pub width: usize,
    pub values: Vec<f32>,
}

/// A tactical marker picked for the player.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Marker {
    Cover,
    Flank,
}

/// One moment of the scene.
pub struct Frame {
    pub time: f32,
    pub title: String,
    pub detail: String,
    pub draw: DebugDraw,
    pub heat: Option<Heat>,
    pub markers: Vec<(Vec3, Marker)>,
    pub labels: Vec<(Vec3, String)>,
}

const COVER: &str = "#3ad6e0";
const FLANK: &str = "#e052d8";

/// `0xRRGGBBAA` → (`#rrggbb`, opacity).
fn rgba(c: u32) -> (String, f32) {
    (format!("#{:06x}", c >> 8), (c & 0xFF) as f32 / 255.0)
}

/// Stroke width by what a line is (known from its colour), in pixels.
fn width_of(color: u32) -> f32 {
    match color {
        colors::AGENT => 2.4,
        colors::SEEN | colors::BLOCKED => 2.0,
        colors::OCCLUDER => 1.6,
        _ => 1.2,
    }
}

/// A heat value in 0..1 → a dark-red → orange → yellow ramp.
fn heat_color(t: f32) -> String {
    let t = t.clamp(0.0, 1.0);
    let (r, g, b) = if t < 0.5 {
        (90.0 + 330.0 * t, 20.0 + 60.0 * t, 30.0)
    } else {
        (255.0, 50.0 + 300.0 * (t - 0.5), 30.0 + 60.0 * (t - 0.5))
    };
    format!("#{:02x}{:02x}{:02x}", r.min(255.0) as u8, g.min(255.0) as u8, b.min(255.0) as u8)
}

fn marker_svg(out: &mut String, x: f32, y: f32, kind: Marker, size: f32) {
    match kind {
        Marker::Cover => {
            let s = size;
            let _ = write!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" transform="rotate(45 {x:.1} {y:.1})" fill="none" stroke="{COVER}" stroke-width="2"/>"#,
                x - s,
                y - s,
                2.0 * s,
                2.0 * s
            );
        }
        Marker::Flank => {
            let s = size * 1.3;
            let _ = write!(
                out,
                r#"<path d="M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z" fill="none" stroke="{FLANK}" stroke-width="2"/>"#,
                x,
                y - s,
                x + s,
                y + s * 0.8,
                x - s,
                y + s * 0.8
            );
        }
    }
}

fn text(out: &mut String, x: f32, y: f32, size: f32, color: &str, s: &str) {
    let s = s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let _ = write!(out, r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" fill="{color}">{s}</text>"#);
}

/// A label inside a frame, with a dark halo so it reads over lines and the heat map.
fn label(out: &mut String, x: f32, y: f32, s: &str) {
    let s = s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let _ = write!(
        out,
        r##"<text x="{x:.1}" y="{y:.1}" font-size="11" fill="#e8ecf4" stroke="{BACKGROUND}" stroke-width="3" stroke-opacity="0.75" paint-order="stroke">{s}</text>"##
    );
}

/// One frame at offset (`ox`, `oy`): caption, heat map, buffer lines and points, markers, labels.
fn frame_svg(out: &mut String, index: usize, f: &Frame, ox: f32, oy: f32, size: (f32, f32)) {
    let (w, h) = (size.0 * SCALE, size.1 * SCALE);
    let (x0, y0) = (ox + PAD, oy + CAPTION);
    let at = |p: Vec3| (x0 + p.x * SCALE, y0 + p.z * SCALE);
    let _ = write!(out, r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" fill="#1b1e26"/>"##, x0, y0);
    text(out, x0, oy + 17.0, 15.0, "#ffffff", &format!("t = {:.1} s — {}", f.time, f.title));
    text(out, x0, oy + 33.0, 12.0, "#aab2c0", &f.detail);
    let _ = write!(
        out,
        r#"<clipPath id="frame{index}"><rect x="{x0:.1}" y="{y0:.1}" width="{w:.1}" height="{h:.1}"/></clipPath><g clip-path="url(#frame{index})">"#
    );
    if let Some(heat) = &f.heat {
        let max = heat.values.iter().copied().fold(0.0f32, f32::max);
        for (i, v) in heat.values.iter().enumerate() {
            if max <= 0.0 || *v <= max * 0.05 {
                continue;
            }
            let t = v / max;
            let (cx, cz) = (
                heat.origin.0 + (i % heat.width) as f32 * heat.cell,
                heat.origin.1 + (i / heat.width) as f32 * heat.cell,
            );
            let (px, py) = at(Vec3::new(cx, 0.0, cz));
            let c = heat.cell * SCALE;
            let _ = write!(
                out,
                r#"<rect x="{px:.1}" y="{py:.1}" width="{:.1}" height="{:.1}" fill="{}" fill-opacity="{:.2}"/>"#,
                c + 0.3,
                c + 0.3,
                heat_color(t),
                0.6 * t.sqrt()
            );
        }
    }
    for l in &f.draw.lines {
        let ((x1, y1), (x2, y2)) = (at(l.a), at(l.b));
        if (x1 - x2).abs() + (y1 - y2).abs() < 0.05 {
            continue; // a vertical edge seen from above
        }
        let (c, a) = rgba(l.color);
        let head = if l.color == colors::AGENT { r#" marker-end="url(#arrow)""# } else { "" };
        let dash =
            if l.color & 0xFFFF_FF00 == colors::MEMORY & 0xFFFF_FF00 { r#" stroke-dasharray="3 3""# } else { "" };
        let _ = write!(
            out,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{c}" stroke-opacity="{a:.2}" stroke-width="{}"{head}{dash}/>"#,
            width_of(l.color)
        );
    }
    for p in &f.draw.points {
        let (x, y) = at(p.position);
        let (c, a) = rgba(p.color);
        let r = (p.radius * SCALE).max(2.5);
        match p.style {
            PointStyle::Solid => {
                let _ = write!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{c}" fill-opacity="{a:.2}"/>"#);
            }
            PointStyle::Wire => {
                let _ = write!(
                    out,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="none" stroke="{c}" stroke-opacity="{a:.2}" stroke-width="1.5"/>"#
                );
            }
        }
    }
    out.push_str("</g>");
    for (p, kind) in &f.markers {
        let (x, y) = at(*p);
        marker_svg(out, x, y, *kind, 5.0);
    }
    let mut placed: Vec<(f32, f32, f32)> = Vec::new();
    for (p, s) in &f.labels {
        let (x, mut y) = at(*p);
        let (x, w) = (x + 7.0, 6.2 * s.chars().count() as f32);
        y -= 7.0;
        // Move down past any label this one would overlap.
        while let Some(&(_, py, _)) =
            placed.iter().find(|(px, py, pw)| (x - px).abs() < w.max(*pw) && (y - py).abs() < 12.0)
        {
            y = py + 12.5;
        }
        placed.push((x, y, w));
        label(out, x, y, s);
    }
}

/// Draws one legend sample centred at (x, y).
type Sample = dyn Fn(&mut String, f32, f32);

/// The legend, one row of samples drawn with the same primitives as the frames.
fn legend_svg(out: &mut String, x: f32, y: f32) {
    let items: [(&str, &Sample); 10] = [
        ("guard, facing arrow, cone", &|o, x, y| {
            let _ = write!(
                o,
                r##"<circle cx="{}" cy="{y}" r="4.5" fill="#ffffff"/><line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#ffffff" stroke-width="2.4" marker-end="url(#arrow)"/>"##,
                x - 10.0,
                x - 10.0,
                x + 5.0
            );
        }),
        ("seen: solid green + line", &|o, x, y| {
            let _ = write!(
                o,
                r##"<line x1="{}" y1="{y}" x2="{x}" y2="{y}" stroke="#22dd44" stroke-width="2"/><circle cx="{x}" cy="{y}" r="4.5" fill="#22dd44"/>"##,
                x - 14.0
            );
        }),
        ("in cone, hidden: grey; red ray to wall", &|o, x, y| {
            let _ = write!(
                o,
                r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#ee2222" stroke-width="2"/><circle cx="{}" cy="{y}" r="2.5" fill="#ee2222"/><circle cx="{}" cy="{y}" r="4.5" fill="#999999"/>"##,
                x - 20.0,
                x - 3.0,
                x - 3.0,
                x + 7.0
            );
        }),
        ("outside cones: dim wire", &|o, x, y| {
            let _ = write!(
                o,
                r##"<circle cx="{x}" cy="{y}" r="4.5" fill="none" stroke="#888888" stroke-opacity="0.44" stroke-width="1.5"/>"##
            );
        }),
        ("memory (fades with confidence)", &|o, x, y| {
            let _ = write!(
                o,
                r##"<circle cx="{}" cy="{y}" r="5" fill="none" stroke="#ffa500" stroke-width="1.5"/><circle cx="{}" cy="{y}" r="5" fill="none" stroke="#ffa500" stroke-opacity="0.35" stroke-width="1.5"/>"##,
                x - 8.0,
                x + 5.0
            );
        }),
        ("footstep heard (radius)", &|o, x, y| {
            let _ = write!(
                o,
                r##"<circle cx="{x}" cy="{y}" r="7" fill="none" stroke="#44aaff" stroke-opacity="0.63" stroke-width="1.2"/>"##
            );
        }),
        ("brain move target", &|o, x, y| {
            let _ = write!(
                o,
                r##"<line x1="{}" y1="{y}" x2="{x}" y2="{y}" stroke="#ffe040" stroke-opacity="0.75" stroke-width="1.2"/><circle cx="{x}" cy="{y}" r="3" fill="#ffe040"/>"##,
                x - 14.0
            );
        }),
        ("danger map", &|o, x, y| {
            for k in 0..4 {
                let _ = write!(
                    o,
                    r#"<rect x="{}" y="{}" width="6" height="10" fill="{}" fill-opacity="{:.2}"/>"#,
                    x - 10.0 + 6.0 * k as f32,
                    y - 5.0,
                    heat_color(k as f32 / 3.0),
                    0.6 * (0.1 + 0.3 * k as f32).sqrt()
                );
            }
        }),
        ("cover point", &|o, x, y| marker_svg(o, x, y, Marker::Cover, 5.0)),
        ("flank point", &|o, x, y| marker_svg(o, x, y, Marker::Flank, 5.0)),
    ];
    for (i, (name, draw)) in items.iter().enumerate() {
        let (cx, cy) = (x + (i % 5) as f32 * 295.0, y + (i / 5) as f32 * 24.0);
        draw(out, cx + 16.0, cy);
        text(out, cx + 36.0, cy + 4.0, 12.0, "#d0d6e0", name);
    }
}

/// Writes the frames in a grid, `COLUMNS` across, with a title and the legend below.
pub fn render(frames: &[Frame], size: (f32, f32), title: &str) -> String {
    let fw = size.0 * SCALE + 2.0 * PAD;
    let fh = size.1 * SCALE + CAPTION + PAD;
    let rows = frames.len().div_ceil(COLUMNS).max(1);
    let top = 34.0;
    let (width, height) = (fw * COLUMNS as f32 + PAD, top + fh * rows as f32 + 70.0);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    out.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#ffffff"/></marker></defs>"##);
    let _ = write!(out, r#"<rect width="100%" height="100%" fill="{BACKGROUND}"/>"#);
    text(&mut out, PAD, 22.0, 17.0, "#ffffff", title);
    for (i, f) in frames.iter().enumerate() {
        let (col, row) = ((i % COLUMNS) as f32, (i / COLUMNS) as f32);
        frame_svg(&mut out, i, f, PAD * 0.5 + col * fw, top + row * fh, size);
    }
    legend_svg(&mut out, PAD, top + fh * rows as f32 + 20.0);
    out.push_str("</svg>\n");
    out
}
