//! A linear layout for a large site. The layered layout (`layout.rs`, layout-rs's
//! Sugiyama) orders ranks to minimise crossings, which grows faster than linearly in a
//! site's nodes.
//! Past a size no layered drawing of a site is readable anyway, so its nodes go in a
//! grid instead, in depth-first order of their links (a linked node is placed next to
//! the node it hangs off), rows read in alternating directions so a chain of links
//! continues round a row's end rather than jumping back across the picture. Linear in
//! nodes and links.

/// Horizontal gap between cells.
const GAP_X: f64 = 24.0;
/// Vertical gap between rows: room for a link's label.
const GAP_Y: f64 = 40.0;
/// Width over height the grid aims at (a screen's).
const ASPECT: f64 = 16.0 / 9.0;

/// Centres of `sizes.len()` boxes (width, height) joined by `edges` (indices), with the
/// bounding box's top-left corner at the origin, and the bounding box's size; the same
/// contract as `layout::place`.
pub(crate) fn place(
    sizes: &[(f64, f64)],
    edges: &[(usize, usize)],
) -> (Vec<(f64, f64)>, (f64, f64)) {
    let n = sizes.len();
    if n == 0 {
        return (Vec::new(), (0.0, 0.0));
    }
    let order = depth_first(n, edges);
    let w = sizes.iter().fold(0.0_f64, |m, s| m.max(s.0));
    let h = sizes.iter().fold(0.0_f64, |m, s| m.max(s.1));
    let (cw, ch) = (w + GAP_X, h + GAP_Y);
    let cols = ((n as f64 * ASPECT * ch / cw).sqrt().ceil() as usize).clamp(1, n);
    let rows = n.div_ceil(cols);
    let mut at = vec![(0.0, 0.0); n];
    for (k, &node) in order.iter().enumerate() {
        let (r, c) = (k / cols, k % cols);
        let c = if r % 2 == 0 { c } else { cols - 1 - c };
        at[node] = (c as f64 * cw + w / 2.0, r as f64 * ch + h / 2.0);
    }
    let width = (cols - 1) as f64 * cw + w;
    let height = (rows - 1) as f64 * ch + h;
    (at, (width, height))
}

/// Every node once, depth first from the lowest-numbered unvisited node, neighbours in
/// ascending order (deterministic), without recursion (a ring of thousands would
/// otherwise be as deep as it is long).
fn depth_first(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    // Adjacency in compressed rows: one allocation for all lists.
    let mut degree = vec![0usize; n + 1];
    let valid = |&&(a, b): &&(usize, usize)| a != b && a < n && b < n;
    for &(a, b) in edges.iter().filter(valid) {
        degree[a] += 1;
        degree[b] += 1;
    }
    let mut start = vec![0usize; n + 1];
    for i in 0..n {
        start[i + 1] = start[i] + degree[i];
    }
    let mut fill = start.clone();
    let mut adj = vec![0usize; start[n]];
    for &(a, b) in edges.iter().filter(valid) {
        adj[fill[a]] = b;
        fill[a] += 1;
        adj[fill[b]] = a;
        fill[b] += 1;
    }
    for i in 0..n {
        adj[start[i]..start[i + 1]].sort_unstable();
    }
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    // A node's leaves (a DTN group on its switch) go right after it, before the walk
    // goes on: otherwise a ring's walk runs round every switch first and its DTNs end up
    // rows away from their switches.
    let visit = |m: usize, seen: &mut Vec<bool>, order: &mut Vec<usize>| {
        seen[m] = true;
        order.push(m);
        for &k in &adj[start[m]..start[m + 1]] {
            if !seen[k] && degree[k] == 1 {
                seen[k] = true;
                order.push(k);
            }
        }
    };
    // (node, index of its next neighbour to try)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if seen[root] {
            continue;
        }
        visit(root, &mut seen, &mut order);
        stack.push((root, start[root]));
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            if next == start[node + 1] {
                stack.pop();
                continue;
            }
            top.1 += 1;
            let m = adj[next];
            if !seen[m] {
                visit(m, &mut seen, &mut order);
                stack.push((m, start[m]));
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_is_placed_in_order_round_the_rows_ends() {
        let n = 12;
        let edges: Vec<_> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let sizes = vec![(100.0, 30.0); n];
        let (at, (w, h)) = place(&sizes, &edges);
        // Each node beside the next: one cell apart, across or down at a row's end.
        for i in 0..n - 1 {
            let (a, b) = (at[i], at[i + 1]);
            let d = (a.0 - b.0).abs() + (a.1 - b.1).abs();
            assert!(d <= 124.0 + 1e-9, "{i}: {a:?} {b:?}");
        }
        // Every node inside the bounding box, no two in one cell.
        for (i, &(x, y)) in at.iter().enumerate() {
            assert!(
                x >= 50.0 && x <= w - 50.0 && y >= 15.0 && y <= h - 15.0,
                "{i}"
            );
        }
        let mut cells: Vec<_> = at.iter().map(|&(x, y)| (x as i64, y as i64)).collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), n);
    }

    #[test]
    fn a_leaf_is_placed_right_after_the_node_it_hangs_off() {
        // A ring of 4 switches (0-3), each with one DTN group (4-7) as a leaf.
        let mut edges: Vec<_> = (0..4).map(|i| (i, (i + 1) % 4)).collect();
        edges.extend((0..4).map(|i| (i, i + 4)));
        assert_eq!(depth_first(8, &edges), vec![0, 4, 1, 5, 2, 6, 3, 7]);
    }

    #[test]
    fn isolated_nodes_and_bad_edges_are_placed_too() {
        let sizes = vec![(40.0, 30.0), (80.0, 30.0), (60.0, 30.0)];
        let (at, (w, _)) = place(&sizes, &[(0, 0), (0, 7)]);
        assert_eq!(at.len(), 3);
        assert!(w >= 80.0);
        assert_eq!(place(&[], &[]).0.len(), 0);
    }
}
