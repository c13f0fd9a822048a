//! Nodes of a lab spread over lab hosts: every part the same size within one node, as
//! few links between parts as this finds. A greedy growth gives each part a connected
//! start, then Fiduccia-Mattheyses passes move single nodes while that lowers the cut.
//! Deterministic: ties go to the lower node index, nothing is random.

/// The graph: `n` nodes and its links as index pairs (a pair may repeat: parallel
/// cables each count).
pub(crate) struct Graph {
    pub(crate) n: usize,
    pub(crate) links: Vec<(usize, usize)>,
}

/// How many nodes part `p` of `k` holds: the first `n % k` parts one more.
fn target(n: usize, k: usize, p: usize) -> usize {
    n / k + usize::from(p < n % k)
}

impl Graph {
    /// Each node's neighbours (once per link).
    fn adjacency(&self) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); self.n];
        for &(a, b) in &self.links {
            if a != b {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
        for a in &mut adj {
            a.sort_unstable();
        }
        adj
    }

    /// Links whose ends sit in different parts.
    #[cfg(test)]
    pub(crate) fn cut(&self, part: &[usize]) -> usize {
        self.links
            .iter()
            .filter(|&&(a, b)| part[a] != part[b])
            .count()
    }

    /// The part of each node, parts `0..k` (k >= 1, k <= n).
    pub(crate) fn split(&self, k: usize) -> Vec<usize> {
        let adj = self.adjacency();
        let mut part = grow(&adj, k);
        for _ in 0..16 {
            if !refine(&adj, k, &mut part) {
                break;
            }
        }
        part
    }
}

/// Greedy growth: each part but the last starts at the free node with the fewest free
/// neighbours (the edge of what is left) and takes, one at a time, the free node with
/// the most links into it (then the fewest links elsewhere); the last part takes the rest.
fn grow(adj: &[Vec<usize>], k: usize) -> Vec<usize> {
    let n = adj.len();
    let free = usize::MAX;
    let mut part = vec![free; n];
    for p in 0..k.saturating_sub(1) {
        // Links of each free node into part p, and to other free nodes.
        let mut into = vec![0usize; n];
        let mut loose: Vec<usize> = (0..n)
            .map(|v| adj[v].iter().filter(|&&w| part[w] == free).count())
            .collect();
        for _ in 0..target(n, k, p) {
            let best = (0..n).filter(|&v| part[v] == free).max_by(|&a, &b| {
                (into[a], std::cmp::Reverse(loose[a]), std::cmp::Reverse(a)).cmp(&(
                    into[b],
                    std::cmp::Reverse(loose[b]),
                    std::cmp::Reverse(b),
                ))
            });
            let Some(v) = best else { break };
            part[v] = p;
            for &w in &adj[v] {
                into[w] += 1;
                loose[w] = loose[w].saturating_sub(1);
            }
        }
    }
    for p in &mut part {
        if *p == free {
            *p = k - 1;
        }
    }
    part
}

/// One Fiduccia-Mattheyses pass: every node moves at most once, each time the move that
/// lowers the cut most (or raises it least) among those that keep every part within
/// one node of its size; the pass keeps the best balanced state it went through. True
/// when the cut went down.
fn refine(adj: &[Vec<usize>], k: usize, part: &mut [usize]) -> bool {
    let n = adj.len();
    if k < 2 || n < 2 {
        return false;
    }
    let (lo, hi) = (n / k, n.div_ceil(k));
    let mut size = vec![0usize; k];
    for &p in part.iter() {
        size[p] += 1;
    }
    // conn[v][p]: links from v into part p.
    let mut conn = vec![vec![0i64; k]; n];
    for v in 0..n {
        for &w in &adj[v] {
            conn[v][part[w]] += 1;
        }
    }
    let balanced = |size: &[usize]| size.iter().all(|&s| s >= lo && s <= hi);
    let mut locked = vec![false; n];
    let mut moves: Vec<(usize, usize)> = Vec::new();
    let (mut gain_sum, mut best_sum, mut best_len) = (0i64, 0i64, 0usize);
    for _ in 0..n {
        let mut best: Option<(i64, usize, usize)> = None;
        for v in (0..n).filter(|&v| !locked[v]) {
            let from = part[v];
            // A part may go one past its bounds in the middle of a pass, so that two
            // parts of exactly equal size can trade nodes.
            if size[from] <= lo.saturating_sub(1) {
                continue;
            }
            for to in (0..k).filter(|&to| to != from && size[to] < hi + 1) {
                let g = conn[v][to] - conn[v][from];
                if best.is_none_or(|(bg, ..)| g > bg) {
                    best = Some((g, v, to));
                }
            }
        }
        let Some((g, v, to)) = best else { break };
        let from = part[v];
        part[v] = to;
        size[from] -= 1;
        size[to] += 1;
        locked[v] = true;
        for &w in &adj[v] {
            conn[w][from] -= 1;
            conn[w][to] += 1;
        }
        moves.push((v, from));
        gain_sum += g;
        if balanced(&size) && gain_sum > best_sum {
            best_sum = gain_sum;
            best_len = moves.len();
        }
    }
    for &(v, from) in moves[best_len..].iter().rev() {
        part[v] = from;
    }
    best_sum > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(part: &[usize], k: usize) -> Vec<usize> {
        let mut s = vec![0; k];
        for &p in part {
            s[p] += 1;
        }
        s
    }

    /// Two cliques of `m` nodes joined by one link: the best cut is that link.
    fn barbell(m: usize) -> Graph {
        let mut links = Vec::new();
        for base in [0, m] {
            for a in 0..m {
                for b in a + 1..m {
                    links.push((base + a, base + b));
                }
            }
        }
        links.push((m - 1, m));
        Graph { n: 2 * m, links }
    }

    #[test]
    fn a_barbell_is_cut_at_its_bar() {
        for m in [2, 3, 5, 8] {
            let g = barbell(m);
            let part = g.split(2);
            assert_eq!(g.cut(&part), 1, "m = {m}: {part:?}");
            assert_eq!(sizes(&part, 2), [m, m]);
        }
    }

    #[test]
    fn refinement_repairs_a_bad_start() {
        // Interleaved halves of the barbell: every clique link is cut at first.
        let g = barbell(6);
        let adj = g.adjacency();
        let mut part: Vec<usize> = (0..12).map(|v| v % 2).collect();
        while refine(&adj, 2, &mut part) {}
        assert_eq!(g.cut(&part), 1, "{part:?}");
    }

    #[test]
    fn a_ring_is_cut_twice_and_a_row_of_booths_once() {
        let ring = Graph {
            n: 10,
            links: (0..10).map(|i| (i, (i + 1) % 10)).collect(),
        };
        let part = ring.split(2);
        assert_eq!(ring.cut(&part), 2, "{part:?}");
        // Four booth switches in a row (0-1-2-3), each with three hosts: halved at the
        // middle switch link; in four parts, one per booth.
        let mut links = vec![(0, 1), (1, 2), (2, 3)];
        for sw in 0..4 {
            links.extend((0..3).map(|h| (sw, 4 + sw * 3 + h)));
        }
        let booths = Graph { n: 16, links };
        let part = booths.split(2);
        assert_eq!(booths.cut(&part), 1, "{part:?}");
        let part = booths.split(4);
        assert_eq!(booths.cut(&part), 3, "{part:?}");
        assert_eq!(sizes(&part, 4), [4, 4, 4, 4]);
    }

    #[test]
    fn parts_are_balanced_within_one_node() {
        for (n, k) in [(7, 2), (10, 3), (33, 2), (33, 4), (5, 5), (100, 7)] {
            // A tree with some chords: connected, irregular.
            let mut links: Vec<(usize, usize)> = (1..n).map(|v| ((v - 1) / 3, v)).collect();
            links.extend((0..n).step_by(5).map(|v| (v, (v * 7 + 3) % n)));
            let g = Graph { n, links };
            let part = g.split(k);
            let s = sizes(&part, k);
            let (min, max) = (*s.iter().min().unwrap(), *s.iter().max().unwrap());
            assert!(max - min <= 1, "n = {n}, k = {k}: {s:?}");
            assert!(part.iter().all(|&p| p < k));
        }
    }

    #[test]
    fn the_same_graph_splits_the_same_way() {
        let mut links: Vec<(usize, usize)> = (1..60).map(|v| (v / 2, v)).collect();
        links.extend([(3, 40), (7, 51), (11, 58), (20, 21)]);
        let g = Graph { n: 60, links };
        let first = g.split(3);
        for _ in 0..5 {
            assert_eq!(g.split(3), first);
        }
    }

    #[test]
    fn disconnected_nodes_still_find_a_part() {
        let g = Graph {
            n: 5,
            links: vec![(0, 1)],
        };
        let part = g.split(2);
        assert_eq!(g.cut(&part), 0, "{part:?}");
        let s = sizes(&part, 2);
        assert!(s == [3, 2] || s == [2, 3], "{s:?}");
    }
}
