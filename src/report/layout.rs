//! Graph layout by layout-rs (a pure-Rust Sugiyama layered layout, the algorithm of
//! Graphviz's `dot`): democ draws the SVG itself, so it only asks for node positions.
//! Sites are laid out in two levels: each site's own nodes first, giving the site's box,
//! then the sites as boxes joined by their inter-site links.

use layout::core::base::Orientation;
use layout::core::format::{ClipHandle, RenderBackend};
use layout::core::geometry::Point;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;

/// A renderer that draws nothing: the positions are all democ needs.
struct Nothing;

impl RenderBackend for Nothing {
    fn draw_rect(
        &mut self,
        _: Point,
        _: Point,
        _: &StyleAttr,
        _: Option<String>,
        _: Option<ClipHandle>,
    ) {
    }
    fn draw_line(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}
    fn draw_circle(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}
    fn draw_text(&mut self, _: Point, _: &str, _: &StyleAttr) {}
    fn draw_arrow(
        &mut self,
        _: &[(Point, Point)],
        _: bool,
        _: (bool, bool),
        _: &StyleAttr,
        _: Option<String>,
        _: &str,
    ) {
    }
    fn create_clip(&mut self, _: Point, _: Point, _: usize) -> ClipHandle {
        0
    }
}

/// Centres of `sizes.len()` boxes (width, height) joined by `edges` (indices), in ranks
/// top to bottom (`across`: left to right); the bounding box's top-left corner is at the
/// origin.
pub(crate) fn place(
    sizes: &[(f64, f64)],
    edges: &[(usize, usize)],
    across: bool,
) -> (Vec<(f64, f64)>, (f64, f64)) {
    if sizes.is_empty() {
        return (Vec::new(), (0.0, 0.0));
    }
    let dir = if across {
        Orientation::LeftToRight
    } else {
        Orientation::TopToBottom
    };
    let mut vg = VisualGraph::new(dir);
    let handles: Vec<_> = sizes
        .iter()
        .map(|&(w, h)| {
            let shape = ShapeKind::new_box("");
            let e = Element::create(shape, StyleAttr::simple(), dir, Point::new(w, h));
            vg.add_node(e)
        })
        .collect();
    for &(a, b) in edges {
        if a != b && a < handles.len() && b < handles.len() {
            vg.add_edge(Arrow::simple(""), handles[a], handles[b]);
        }
    }
    vg.do_it(false, false, false, &mut Nothing);
    let centres: Vec<(f64, f64)> = handles
        .iter()
        .map(|&h| {
            let c = vg.pos(h).center();
            (c.x, c.y)
        })
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (&(x, y), &(w, h)) in centres.iter().zip(sizes) {
        x0 = x0.min(x - w / 2.0);
        y0 = y0.min(y - h / 2.0);
        x1 = x1.max(x + w / 2.0);
        y1 = y1.max(y + h / 2.0);
    }
    (
        centres.iter().map(|&(x, y)| (x - x0, y - y0)).collect(),
        (x1 - x0, y1 - y0),
    )
}
