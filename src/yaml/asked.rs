//! What a field-by-field decoder has asked of one mapping: the field names it knows (for
//! "did you mean" on an unknown key) and which entries it took. Both are kept without
//! allocating for the usual mapping (a few entries, at most a few dozen fields): a Vec
//! each, grown name by name, was a quarter of decoding a large show.

/// Field names asked for, in the order asked.
pub(crate) struct Known {
    first: [&'static str; INLINE_NAMES],
    len: usize,
    more: Vec<&'static str>,
}

/// Names kept inline; a decoder asking more spills the rest into a Vec.
const INLINE_NAMES: usize = 16;

impl Known {
    pub(crate) fn new() -> Known {
        Known {
            first: [""; INLINE_NAMES],
            len: 0,
            more: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, name: &'static str) {
        match self.first.get_mut(self.len) {
            Some(slot) => {
                *slot = name;
                self.len += 1;
            }
            None => self.more.push(name),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &'static str> + Clone + '_ {
        self.first[..self.len].iter().chain(&self.more).copied()
    }
}

/// Which entries of a mapping were taken: a bit each for the first 64, a Vec beyond.
pub(crate) struct Taken {
    bits: u64,
    more: Vec<bool>,
}

impl Taken {
    pub(crate) fn new(entries: usize) -> Taken {
        Taken {
            bits: 0,
            more: vec![false; entries.saturating_sub(64)],
        }
    }

    pub(crate) fn set(&mut self, i: usize) {
        match i.checked_sub(64) {
            None => self.bits |= 1 << i,
            Some(k) => {
                if let Some(b) = self.more.get_mut(k) {
                    *b = true;
                }
            }
        }
    }

    pub(crate) fn get(&self, i: usize) -> bool {
        match i.checked_sub(64) {
            None => self.bits & (1 << i) != 0,
            Some(k) => self.more.get(k).copied().unwrap_or(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_keeps_order_past_the_inline_names() {
        let names: Vec<&'static str> = (0..40)
            .map(|i| &*Box::leak(format!("f{i}").into_boxed_str()))
            .collect();
        let mut k = Known::new();
        for n in &names {
            k.push(n);
        }
        assert_eq!(k.iter().collect::<Vec<_>>(), names);
    }

    #[test]
    fn taken_marks_entries_on_both_sides_of_64() {
        let mut t = Taken::new(200);
        for i in [0, 5, 63, 64, 65, 199] {
            t.set(i);
        }
        let set: Vec<usize> = (0..200).filter(|&i| t.get(i)).collect();
        assert_eq!(set, [0, 5, 63, 64, 65, 199]);
    }
}
