//! Where each cable bundle's label goes: on its line, at the first of a few positions
//! along it (the middle first) whose box covers no node and no label placed before it;
//! when none is free, the one that covers least. Boxes are found through a grid of
//! cells, so placing every label costs about as much as the labels, whatever the show's
//! size.

use std::collections::HashMap;

/// A box: left, top, width, height.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rect {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) w: f64,
    pub(crate) h: f64,
}

impl Rect {
    fn overlap(&self, o: &Rect) -> f64 {
        let w = (self.x + self.w).min(o.x + o.w) - self.x.max(o.x);
        let h = (self.y + self.h).min(o.y + o.h) - self.y.max(o.y);
        if w > 0.0 && h > 0.0 { w * h } else { 0.0 }
    }
}

/// A label's text at 10 px in the report's monospace font: 0.6 em a character (the
/// advance of DejaVu Sans Mono and its kind), ascent and descent within 12 px, plus a
/// margin so that labels never touch.
fn text_box(x: f64, baseline: f64, chars: usize) -> Rect {
    Rect {
        x: x - 2.0,
        y: baseline - 11.0,
        w: 6.1 * chars as f64 + 4.0,
        h: 15.0,
    }
}

const CELL: f64 = 64.0;

/// Boxes bucketed by the grid cells they touch.
#[derive(Default)]
struct Grid {
    boxes: Vec<Rect>,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    fn cells(r: &Rect) -> impl Iterator<Item = (i64, i64)> {
        let (x0, x1) = (
            (r.x / CELL).floor() as i64,
            ((r.x + r.w) / CELL).floor() as i64,
        );
        let (y0, y1) = (
            (r.y / CELL).floor() as i64,
            ((r.y + r.h) / CELL).floor() as i64,
        );
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    fn add(&mut self, r: Rect) {
        let i = self.boxes.len();
        self.boxes.push(r);
        for c in Self::cells(&r) {
            self.cells.entry(c).or_default().push(i);
        }
    }

    /// The area of `r` that boxes already placed cover (a box met in two cells counts
    /// twice: only zero matters exactly).
    fn covered(&self, r: &Rect) -> f64 {
        Self::cells(r)
            .filter_map(|c| self.cells.get(&c))
            .flatten()
            .map(|&i| self.boxes[i].overlap(r))
            .sum()
    }
}

/// Positions along a line, middle first, then outwards; and offsets across it.
const ALONG: [f64; 9] = [0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.15, 0.85];
const ACROSS: [f64; 3] = [0.0, 1.0, -1.0];

/// A label's line (its two ends) and its length in characters.
pub(crate) type Line = ((f64, f64), (f64, f64), usize);

/// Each label's text position (its start, its baseline), given the node boxes and the
/// labels' lines.
pub(crate) fn place(nodes: &[Rect], lines: &[Line]) -> Vec<(f64, f64)> {
    let mut grid = Grid::default();
    for &n in nodes {
        grid.add(n);
    }
    lines
        .iter()
        .map(|&((x1, y1), (x2, y2), chars)| {
            let w = 6.1 * chars as f64;
            let mut best = ((x1 + x2) / 2.0 + 4.0, (y1 + y2) / 2.0 - 3.0);
            let mut least = f64::INFINITY;
            'search: for side in ACROSS {
                for t in ALONG {
                    // The text's middle on the line, moved a line's height across it.
                    let (cx, cy) = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t + side * 14.0);
                    let at = (cx - w / 2.0, cy + 3.5);
                    let covered = grid.covered(&text_box(at.0, at.1, chars));
                    if covered < least {
                        least = covered;
                        best = at;
                        if covered == 0.0 {
                            break 'search;
                        }
                    }
                }
            }
            grid.add(text_box(best.0, best.1, chars));
            best
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_leaves_the_node_at_its_line_middle() {
        // A node sits on the middle of a 300 px line: the label moves along the line.
        let node = Rect {
            x: 130.0,
            y: 85.0,
            w: 40.0,
            h: 30.0,
        };
        let at = place(&[node], &[((0.0, 100.0), (300.0, 100.0), 10)]);
        let r = text_box(at[0].0, at[0].1, 10);
        assert_eq!(r.overlap(&node), 0.0, "{at:?}");
    }

    #[test]
    fn two_labels_on_one_line_do_not_stack() {
        let line = ((0.0, 0.0), (400.0, 0.0), 12);
        let at = place(&[], &[line, line]);
        let (a, b) = (
            text_box(at[0].0, at[0].1, 12),
            text_box(at[1].0, at[1].1, 12),
        );
        assert_eq!(a.overlap(&b), 0.0, "{at:?}");
    }
}
